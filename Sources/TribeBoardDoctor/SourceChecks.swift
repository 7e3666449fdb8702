import Foundation
import TribeBoardXcodeProject

/// The target's Swift code against its own entitlements: each container it names must be listed;
/// the default container (`CKContainer.default()`, SwiftData's `.automatic`) is the first listed.
struct SourceChecks {
    let facts: TargetFacts

    static let checked = "Container identifiers in Swift and Objective-C sources (CKContainer, containerWithIdentifier:,"
        + " ModelConfiguration cloudKitDatabase, NSPersistentCloudKitContainerOptions)"

    /// What the references say, gathered before the verdict.
    private struct Findings {
        var failures: [String] = [], warnings: [String] = [], found: [String] = []
        var failureLocations: [SourceLocation] = [], warningLocations: [SourceLocation] = []

        mutating func fail(_ text: String, at location: SourceLocation) {
            failures.append(text)
            failureLocations.append(location)
        }

        mutating func warn(_ text: String, at location: SourceLocation) {
            warnings.append(text)
            warningLocations.append(location)
        }
    }

    func check(target: String) -> DoctorCheck {
        var findings = Findings()
        let builds = facts.builds.filter { $0.file != nil }
        let followed = facts.references.contains {
            if case .unresolved = $0.value { return false } else { return true }
        }
        for reference in facts.references {
            // A name doctor cannot follow (a parameter, a share's metadata) says nothing more when
            // the code names a container elsewhere; alone, it is CloudKit code that cannot be
            // verified.
            if case .unresolved = reference.value, followed { continue }
            if facts.hasICloud {
                judge(reference, in: builds, into: &findings)
            } else {
                judgeWithoutICloud(reference, noEntitlements: builds.isEmpty, into: &findings)
            }
        }
        var result = verdict(findings, builds: builds)
        result.target = target
        return result
    }

    /// Without iCloud, code written for this target alone breaks when it runs (a store set-up at
    /// launch); code it shares with other targets or links may never run here.
    private func judgeWithoutICloud(
        _ reference: ContainerReference, noEntitlements: Bool, into findings: inout Findings
    ) {
        let place = "\(reference.location), \(reference.call)"
        let why =
            noEntitlements
            ? "the target has no readable entitlements file, so no container at all"
            : "the entitlements of \(facts.target.name) have no iCloud capability"
        let what = reference.isStoreSetUp ? "this store set-up" : "this CloudKit call"
        if facts.isOwnCode(reference) {
            findings.fail("\(describe(reference.value)) (\(place)): \(why); \(what) is the target's own code and fails when it runs"
                          + (reference.isStoreSetUp ? " (at launch)" : ""), at: reference.location)
        } else {
            findings.warn("\(describe(reference.value)) (\(place)): \(why); \(what) is shared code compiled into \(facts.target.name)"
                          + " and fails if it runs there (whether it does cannot be known from the code: a warning, not a failure)",
                          at: reference.location)
        }
    }

    /// One reference against every build's entitlements: the container it names must be listed.
    private func judge(
        _ reference: ContainerReference, in builds: [TargetFacts.Build],
        into findings: inout Findings
    ) {
        let place = "\(reference.location), \(reference.call)"
        var missingIn: [String] = [], uses: Set<String> = []
        for build in builds {
            let listed = build.containers.filter { $0.value.isResolved }.map(\.value.value)
            let unresolved = build.containers.filter { !$0.value.isResolved }.flatMap(
                \.value.unresolved)
            switch resolve(reference.value, build) {
            case .warning(let text):
                findings.warn("\(text) (\(place))", at: reference.location)
            case .defaultContainer:
                if let first = build.containers.first {
                    if first.value.isResolved { uses.insert(first.value.value) } else {
                        findings.warnings.append("\(place): the first container cannot be resolved: \(TargetFacts.describe(first.value.unresolved))")
                    }
                } else if reference.isAutomatic {
                    findings.found.append("\(place) in \(build.label): no container listed, a local store that syncs nothing")
                } else {
                    missingIn.append(build.label)
                }
            case .value(let resolved):
                if listed.contains(resolved) {
                    uses.insert(resolved)
                } else if !unresolved.isEmpty {
                    findings.warnings.append(
                        "\(resolved) (\(place)): cannot verify, \(TargetFacts.describe(unresolved))"
                    )
                } else {
                    missingIn.append(
                        "\(build.label) lists \(listed.joined(separator: ", ").ifEmpty("none"))")
                }
            }
        }
        if !missingIn.isEmpty {
            let name = builds.first.flatMap { build -> String? in
                if case .value(let value) = resolve(reference.value, build) { return value }
                return nil
            } ?? describe(reference.value)
            findings.fail(reference.value == .defaultContainer
                ? "\(place) uses the default container, but the entitlements of \(facts.target.name) "
                    + "list none in \(missingIn.joined(separator: ", "))"
                : "\(name) (\(place)) is not in the entitlements of \(facts.target.name): \(missingIn.joined(separator: "; "))",
                at: reference.location)
        } else if !uses.isEmpty {
            findings.found.append("\(uses.sorted().joined(separator: ", ")) (\(place))")
        }
    }

    private func verdict(_ findings: Findings, builds: [TargetFacts.Build]) -> DoctorCheck {
        let unique = Array(Set(findings.warnings)).sorted()
        if !findings.failures.isEmpty {
            let listed = Set(
                builds.flatMap { $0.containers.filter { $0.value.isResolved }.map(\.value.value) }
            ).sorted()
            let choice =
                listed.isEmpty
                ? "add the iCloud capability with a container to \(facts.target.name)"
                : "make the entitlements list the container the code names (Signing & Capabilities > iCloud > Containers),"
                    + " or name one they list: \(listed.joined(separator: ", "))"
            return DoctorCheck(
                .containerSwiftSources, .container, .failure, checked: Self.checked,
                found: (findings.failures + unique + findings.found.map { "listed, fine: \($0)" })
                    .joined(separator: "\n"),
                action: choice
                    + ": a container the entitlements do not list makes ModelContainer creation fail at launch,"
                    + " and every CKContainer request fail",
                locations: findings.failureLocations)
        }
        if !unique.isEmpty {
            return DoctorCheck(
                .containerSwiftSources, .container, .warning, checked: Self.checked,
                found: (unique + findings.found).joined(separator: "\n"),
                action: "check these by hand against the entitlements",
                locations: TargetChecks.unique(
                    findings.warningLocations + facts.references.map(\.location)))
        }
        if findings.found.isEmpty {
            return DoctorCheck(.containerSwiftSources, .container, .ok, checked: Self.checked,
                               found: "no container named in the target's code: SwiftData and "
                                + "CKContainer.default() use the entitlements' first container")
        }
        return DoctorCheck(
            .containerSwiftSources, .container, .ok, checked: Self.checked,
            found: findings.found.joined(separator: "; "),
            locations: facts.references.map(\.location))
    }

    /// The containers the target's code reaches, over every build: nil when the code names none
    /// (what runs is then the framework's default), one doctor cannot verify, or one the
    /// entitlements do not list (the code's own failure, `container.swiftSources`).
    func containersUsed() -> Set<String>? {
        let builds = facts.builds.filter { $0.file != nil }
        let named = facts.references.filter {
            if case .unresolved = $0.value { return false } else { return true }
        }
        guard facts.hasICloud, !named.isEmpty, named.count == facts.references.count else {
            return nil
        }
        var used: Set<String> = []
        for reference in named {
            for build in builds {
                switch resolve(reference.value, build) {
                case .warning: return nil
                case .value(let value):
                    guard
                        build.containers.contains(where: {
                            $0.value.isResolved && $0.value.value == value
                        })
                    else { return nil }
                    used.insert(value)
                case .defaultContainer:
                    guard let first = build.containers.first else { continue }
                    guard first.value.isResolved else { return nil }
                    used.insert(first.value.value)
                }
            }
        }
        return used
    }

    private enum Resolution {
        case value(String)
        case defaultContainer
        /// Cannot be verified, and why.
        case warning(String)
    }

    /// What a reference names in one build: a container, the default one, or why it cannot be
    /// verified.
    private func resolve(_ value: ContainerReference.Value, _ build: TargetFacts.Build)
        -> Resolution
    {
        switch value {
        case .literal(let text): return .value(text)
        case .bundleIDSuffix(let prefix):
            guard let bundleID = build.bundleID, bundleID.isResolved else {
                return .warning("the bundle id cannot be resolved, cannot verify")
            }
            return .value(prefix + bundleID.value)
        case .interpolated(let text): return .warning("\(text): built at run time, cannot verify")
        case .defaultContainer: return .defaultContainer
        case .unresolved(let name):
            return .warning("the container is \(name), whose value doctor cannot find in the target's code: cannot verify")
        case .infoPlist(let key, let fallback):
            let found = build.infoPlistValue(key, project: facts.project)
            guard case .value(let setting, let written) = found else {
                // Not set at all: the code's own fallback is the container (`?? "iCloud.…"`).
                if found == nil, case .literal(let text)? = fallback { return .value(text) }
                if case .severalKeys(let keys) = found {
                    return .warning(
                        "the container is read at run time from the first key of the Info.plist "
                            + "dictionary \(key), which lists \(keys.joined(separator: ", ")) in no fixed order: cannot verify"
                    )
                }
                return .warning("the container is read at run time from the Info.plist key \(key), "
                    + "which \(build.label)'s Info.plist does not set: cannot verify")
            }
            guard setting.isResolved, setting.value.hasPrefix("iCloud.") else {
                let why =
                    setting.isResolved
                    ? "is \"\(setting.value)\", not a container"
                    : TargetFacts.describe(setting.unresolved)
                return .warning(
                    "the container is read at run time from the Info.plist key \(key) (\(written)): \(why); cannot verify"
                )
            }
            return .value(setting.value)
        }
    }

    private func describe(_ value: ContainerReference.Value) -> String {
        switch value {
        case .literal(let text), .interpolated(let text): return text
        case .bundleIDSuffix(let prefix): return "\(prefix) + the bundle id"
        case .defaultContainer: return "the default container"
        case .infoPlist(let key, _): return "the container in the Info.plist key \(key)"
        case .unresolved(let name): return "the container in \(name)"
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
        for build in facts.builds
        where build.variant.context.sdk == "iphoneos" && build.usesCloudKitService {
            let settings = build.variant.settings
            if let setting = settings.resolved("INFOPLIST_KEY_UIBackgroundModes"),
               setting.value.split(separator: " ").contains(Substring(Self.mode)) {
                declared.append("\(build.label): INFOPLIST_KEY_UIBackgroundModes\(setting.location.map { " (\($0))" } ?? "")")
                if let location = setting.location { locations.append(location) }
                continue
            }
            guard let setting = settings.resolvedPath("INFOPLIST_FILE"), !setting.value.isEmpty
            else {
                missing.append(build.label)
                continue
            }
            let written = facts.project.path(fromSetting: setting.value)
            do {
                let plist = try XMLPlistFile.read(
                    CaseInsensitivePath.resolve(written)?.path ?? written)
                if (plist.strings("UIBackgroundModes") ?? []).contains(Self.mode) {
                    let location = SourceLocation(path: facts.relative(plist.path), line: plist.line(ofValue: Self.mode, after: "UIBackgroundModes"))
                    declared.append("\(build.label): UIBackgroundModes (\(location))")
                    locations.append(location)
                } else {
                    missing.append(build.label)
                }
            } catch {
                let at = setting.location.map { " (INFOPLIST_FILE at \($0))" } ?? ""
                unreadable.append(
                    "\(build.label): cannot read the Info.plist \(facts.relative(written))\(at): "
                        + error.localizedDescription)
            }
        }
        let checked = "Background mode \(Self.mode) (INFOPLIST_KEY_UIBackgroundModes or Info.plist UIBackgroundModes)"
        var result: DoctorCheck
        if !unreadable.isEmpty || !missing.isEmpty {
            let notDeclared = missing.isEmpty ? [] : [
                "not declared in \(missing.joined(separator: ", ")): CloudKit pushes do not wake the app, "
                    + "sync waits for the next launch",
            ]
            result = DoctorCheck(.containerBackgroundModes, .container, .warning, checked: checked,
                                 found: (unreadable + notDeclared).joined(separator: "\n"),
                                 action: unreadable.isEmpty ? "tick Remote notifications under Signing & Capabilities > Background Modes"
                                                            : "make the Info.plist readable (or fix INFOPLIST_FILE), then run doctor again",
                                 locations: locations)
        } else if declared.isEmpty {
            result = DoctorCheck(
                .containerBackgroundModes, .container, .ok, checked: checked,
                found: "not needed: no iOS build lists CloudKit among its services")
        } else {
            result = DoctorCheck(
                .containerBackgroundModes, .container, .ok, checked: checked,
                found: TargetChecks.merge(declared.map { $0 }).ifEmpty(
                    declared.joined(separator: "; ")), locations: locations)
        }
        result.target = target
        return result
    }
}
