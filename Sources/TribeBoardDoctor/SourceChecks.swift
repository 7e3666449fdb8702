import Foundation
import TribeBoardXcodeProject

/// The target's Swift code against its own entitlements: each container it names must be listed;
/// the default container (`CKContainer.default()`, SwiftData's `.automatic`) is the first listed.
struct SourceChecks {
    let facts: TargetFacts

    func check(target: String) -> DoctorCheck {
        let checked = "Container identifiers in Swift sources (CKContainer, ModelConfiguration cloudKitDatabase, containerIdentifier)"
        var failures: [String] = [], warnings: [String] = [], found: [String] = []
        var failureLocations: [SourceLocation] = []
        let builds = facts.builds.filter { $0.file != nil }
        for reference in facts.references {
            let place = "\(reference.location), \(reference.call)"
            if builds.isEmpty {
                failures.append("\(describe(reference.value)) (\(place)): the target has no readable entitlements file, so no container at all")
                failureLocations.append(reference.location)
                continue
            }
            var missingIn: [String] = [], uses: Set<String> = []
            for build in builds {
                let listed = build.containers.filter { $0.value.isResolved }.map(\.value.value)
                let unresolved = build.containers.filter { !$0.value.isResolved }.flatMap(\.value.unresolved)
                switch reference.value {
                case .interpolated(let text):
                    warnings.append("\(text) (\(place)): built at run time, cannot verify")
                case .defaultContainer:
                    if let first = build.containers.first {
                        if first.value.isResolved { uses.insert(first.value.value) } else {
                            warnings.append("\(place): the first container cannot be resolved: \(TargetFacts.describe(first.value.unresolved))")
                        }
                    } else {
                        missingIn.append(build.label)
                    }
                case .literal, .bundleIDSuffix:
                    guard let value = value(reference.value, build) else {
                        warnings.append("\(place): the bundle id cannot be resolved, cannot verify")
                        continue
                    }
                    if listed.contains(value) {
                        uses.insert(value)
                    } else if !unresolved.isEmpty {
                        warnings.append("\(value) (\(place)): cannot verify, \(TargetFacts.describe(unresolved))")
                    } else {
                        missingIn.append("\(build.label) lists \(listed.joined(separator: ", ").ifEmpty("none"))")
                    }
                }
                if case .interpolated = reference.value { break }
            }
            let name = builds.first.flatMap { value(reference.value, $0) } ?? describe(reference.value)
            if !missingIn.isEmpty {
                if reference.value == .defaultContainer {
                    failures.append("\(place) uses the default container, but the entitlements of \(facts.target.name) list none in \(missingIn.joined(separator: ", "))")
                } else {
                    failures.append("\(name) (\(place)) is not in the entitlements of \(facts.target.name): \(missingIn.joined(separator: "; "))")
                }
                failureLocations.append(reference.location)
            } else if !uses.isEmpty {
                found.append("\(uses.sorted().joined(separator: ", ")) (\(place))")
            }
        }
        let unique = Array(Set(warnings)).sorted()
        var result: DoctorCheck
        if !failures.isEmpty {
            let listed = Set(builds.flatMap { $0.containers.filter { $0.value.isResolved }.map(\.value.value) }).sorted()
            let choice = listed.isEmpty ? "add the iCloud capability with a container to \(facts.target.name)"
                : "make the entitlements list the container the code names (Signing & Capabilities > iCloud > Containers), or name one they list: \(listed.joined(separator: ", "))"
            result = DoctorCheck(.containerSwiftSources, .container, .failure, checked: checked,
                                 found: (failures + unique + found.map { "listed, fine: \($0)" }).joined(separator: "\n"),
                                 action: choice + ": a container the entitlements do not list makes ModelContainer creation fail at launch, and every CKContainer request fail",
                                 locations: failureLocations)
        } else if !unique.isEmpty {
            result = DoctorCheck(.containerSwiftSources, .container, .warning, checked: checked, found: (unique + found).joined(separator: "\n"),
                                 action: "check these by hand against the entitlements", locations: facts.references.map(\.location))
        } else if found.isEmpty {
            result = DoctorCheck(.containerSwiftSources, .container, .ok, checked: checked,
                                 found: "no container named in the target's Swift sources: SwiftData and CKContainer.default() use the entitlements' first container")
        } else {
            result = DoctorCheck(.containerSwiftSources, .container, .ok, checked: checked, found: found.joined(separator: "; "),
                                 locations: facts.references.map(\.location))
        }
        result.target = target
        return result
    }

    private func value(_ value: ContainerReference.Value, _ build: TargetFacts.Build) -> String? {
        switch value {
        case .literal(let text): return text
        case .bundleIDSuffix(let prefix):
            guard let bundleID = build.bundleID, bundleID.isResolved else { return nil }
            return prefix + bundleID.value
        case .interpolated, .defaultContainer: return nil
        }
    }

    private func describe(_ value: ContainerReference.Value) -> String {
        switch value {
        case .literal(let text), .interpolated(let text): return text
        case .bundleIDSuffix(let prefix): return "\(prefix) + the bundle id"
        case .defaultContainer: return "the default container"
        }
    }
}

/// `remote-notification` among an iOS app's background modes (`INFOPLIST_KEY_UIBackgroundModes`
/// or the Info.plist the target names): without it CloudKit pushes do not wake the app.
struct BackgroundModes {
    static let mode = "remote-notification"
    let facts: TargetFacts

    func check(target: String) -> DoctorCheck {
        var declared: [String] = [], missing: [String] = [], unreadable: [String] = []
        var locations: [SourceLocation] = []
        for build in facts.builds where build.variant.context.sdk == "iphoneos" && build.usesCloudKitService {
            let settings = build.variant.settings
            if let setting = settings.resolved("INFOPLIST_KEY_UIBackgroundModes"), setting.value.split(separator: " ").contains(Substring(Self.mode)) {
                declared.append("\(build.label): INFOPLIST_KEY_UIBackgroundModes\(setting.location.map { " (\($0))" } ?? "")")
                if let location = setting.location { locations.append(location) }
                continue
            }
            guard let setting = settings.resolvedPath("INFOPLIST_FILE"), !setting.value.isEmpty else {
                missing.append(build.label)
                continue
            }
            let written = facts.project.path(fromSetting: setting.value)
            do {
                let plist = try XMLPlistFile.read(CaseInsensitivePath.resolve(written)?.path ?? written)
                if (plist.strings("UIBackgroundModes") ?? []).contains(Self.mode) {
                    let location = SourceLocation(path: facts.relative(plist.path), line: plist.line(ofValue: Self.mode, after: "UIBackgroundModes"))
                    declared.append("\(build.label): UIBackgroundModes (\(location))")
                    locations.append(location)
                } else {
                    missing.append(build.label)
                }
            } catch {
                unreadable.append("\(build.label): cannot read the Info.plist \(facts.relative(written))\(setting.location.map { " (INFOPLIST_FILE at \($0))" } ?? ""): \(error.localizedDescription)")
            }
        }
        let checked = "Background mode \(Self.mode) (INFOPLIST_KEY_UIBackgroundModes or Info.plist UIBackgroundModes)"
        var result: DoctorCheck
        if !unreadable.isEmpty || !missing.isEmpty {
            let notDeclared = missing.isEmpty ? [] : ["not declared in \(missing.joined(separator: ", ")): CloudKit pushes do not wake the app, sync waits for the next launch"]
            result = DoctorCheck(.containerBackgroundModes, .container, .warning, checked: checked, found: (unreadable + notDeclared).joined(separator: "\n"),
                                 action: unreadable.isEmpty ? "tick Remote notifications under Signing & Capabilities > Background Modes"
                                                            : "make the Info.plist readable (or fix INFOPLIST_FILE), then run doctor again",
                                 locations: locations)
        } else if declared.isEmpty {
            result = DoctorCheck(.containerBackgroundModes, .container, .ok, checked: checked,
                                 found: "not needed: no iOS build lists CloudKit among its services")
        } else {
            result = DoctorCheck(.containerBackgroundModes, .container, .ok, checked: checked,
                                 found: TargetChecks.merge(declared.map { $0 }).ifEmpty(declared.joined(separator: "; ")), locations: locations)
        }
        result.target = target
        return result
    }
}
