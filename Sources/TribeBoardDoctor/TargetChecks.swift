import Foundation
import TribeBoardXcodeProject

/// The checks of one CloudKit target, each line naming it. The rule that is certain: every
/// container the target's code names is in its own `icloud-container-identifiers`, with CloudKit
/// among its services; the default container is the first one listed. A container not named
/// after the bundle id is information: Apple allows it, and moving an app off it loses its data.
struct TargetChecks {
    let facts: TargetFacts

    private var target: String { facts.target.name }

    private func check(
        _ id: DoctorCheckID, _ status: DoctorSeverity, _ checked: String, _ found: String,
        action: String? = nil,
        locations: [SourceLocation] = []
    ) -> DoctorCheck {
        var check = DoctorCheck(
            id, .container, status, checked: checked, found: found, action: action,
            locations: locations)
        check.target = target
        return check
    }

    func run() -> [DoctorCheck] {
        var checks = [bundleIDCheck(), entitlementsCheck()]
        if !facts.target.problems.isEmpty {
            checks.append(
                check(
                    .containerXcconfig, .warning, "Build configuration files (.xcconfig)",
                    facts.target.problems.joined(separator: "\n"),
                    action:
                        "fix the #include paths, or compare the values below with those Xcode shows"
                ))
        }
        guard facts.builds.contains(where: { $0.file != nil }) else {
            return checks + [sourcesCheck()]
        }
        checks += [containersCheck(), servicesCheck(), sourcesCheck()]
        if facts.target.kind.isApplication { checks.append(apsCheck()) }
        if facts.target.kind == .app || facts.target.kind == .appClip,
            facts.target.sdks.contains("iphoneos")
        {
            checks.append(BackgroundModes(facts: facts).check(target: target))
        }
        return checks
    }

    private func bundleIDCheck() -> DoctorCheck {
        let checked = "Bundle identifier (PRODUCT_BUNDLE_IDENTIFIER)"
        let missing = facts.builds.filter { ($0.bundleID?.value ?? "").isEmpty }.map(\.label)
        let unresolved = facts.builds.compactMap(\.bundleID).flatMap(\.unresolved)
        let places = Dictionary(grouping: facts.builds.filter { $0.bundleID?.isResolved == true }) {
            $0.bundleID?.value ?? ""
        }
        .sorted { $0.key < $1.key }
        .map { value, builds -> String in
            let location = builds.first?.bundleID?.location.map { ", \($0)" } ?? ""
            return "\(value) (\(builds.map(\.label).joined(separator: ", "))\(location))"
        }
        let locations = facts.builds.compactMap { $0.bundleID?.location }
        if !missing.isEmpty {
            return check(
                .containerBundleID, .failure, checked,
                "no PRODUCT_BUNDLE_IDENTIFIER in \(missing.joined(separator: ", "))",
                action:
                    "set the bundle id of every configuration (target > Signing & Capabilities, or the target's xcconfig)"
            )
        }
        if !unresolved.isEmpty {
            let labels = facts.builds.filter { $0.bundleID?.isResolved == false }.map(\.label)
                .joined(separator: ", ")
            return check(
                .containerBundleID, .warning, checked,
                (["cannot be resolved in \(labels): \(TargetFacts.describe(unresolved))"] + places)
                    .joined(separator: "\n"),
                action: "compare the containers below with the bundle id Xcode shows",
                locations: locations)
        }
        return check(
            .containerBundleID, .ok, checked, places.joined(separator: "; "),
            locations: Self.unique(locations))
    }

    static func unique(_ locations: [SourceLocation]) -> [SourceLocation] {
        locations.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    private func entitlementsCheck() -> DoctorCheck {
        let checked = "Entitlements file (CODE_SIGN_ENTITLEMENTS)"
        var failures: [String] = [], warnings: [String] = [], found: [String] = []
        var locations: [SourceLocation] = []
        // The target's own code breaks when it runs; code it shares or links may never run in it.
        let own = facts.references.first(where: facts.isOwnCode)
        let codeUse = (own ?? facts.references.first).map {
            " while \(own == nil ? "shared code it compiles may call CloudKit" : "its own code uses CloudKit") (\($0.location), \($0.call))"
        } ?? ""
        for build in facts.builds {
            let setting = build.entitlementsSetting
            if let location = setting?.location { locations.append(location) }
            guard let setting, !setting.value.isEmpty else {
                let line =
                    "\(build.label) has no CODE_SIGN_ENTITLEMENTS: built without iCloud\(codeUse)"
                if own == nil { warnings.append(line) } else { failures.append(line) }
                continue
            }
            if !setting.isResolved {
                warnings.append("\(build.label): \(TargetFacts.describe(setting.unresolved)); "
                    + "Xcode reads it as empty, giving \(facts.relative(build.entitlementsPath ?? setting.value))")
            }
            let named = setting.location.map { ", named by CODE_SIGN_ENTITLEMENTS at \($0)" } ?? ""
            let shown = facts.relative(build.entitlementsPath ?? setting.value)
            switch build.entitlements {
            case .failure(let error)? where !setting.isResolved:
                // The path hangs on a variable set where doctor cannot see (an xcconfig the repository leaves out):
                // what it reads is not what Xcode will read, so not a failure.
                warnings.append("\(shown)\(named): \(Self.shortReason(error)), but the path depends on a variable doctor cannot resolve")
            case .failure(let error)?: failures.append("\(shown)\(named): \(Self.shortReason(error))")
            case .success(let file)?:
                if build.caseDiffers {
                    warnings.append(
                        "\(shown) is written \(setting.value): found only ignoring case, "
                            + "a case-sensitive volume would fail")
                }
                let iCloud = build.hasICloud ? "" : " (no iCloud entitlement)"
                found.append("\(build.label): \(facts.relative(file.path))\(iCloud)")
            case nil: break
            }
        }
        if !failures.isEmpty {
            let unreadable = facts.hasUnreadableEntitlements
            return check(.containerEntitlements, .failure, checked, (failures + warnings).joined(separator: "\n"),
                         action: unreadable ? Self.unreadableAction
                             : "add the iCloud capability with CloudKit to this target in Xcode "
                                + "(Signing & Capabilities), which writes the file and the setting",
                         locations: locations)
        }
        let foundText = Self.merge(found)
        warnings = warnings.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        if !warnings.isEmpty {
            return check(.containerEntitlements, .warning, checked, (warnings + [foundText]).filter { !$0.isEmpty }.joined(separator: "\n"),
                         action: "make sure every build that should sync names the entitlements file", locations: locations)
        }
        return check(
            .containerEntitlements, .ok, checked, foundText, locations: Self.unique(locations))
    }

    static let unreadableAction =
        "make CODE_SIGN_ENTITLEMENTS name the file as it is in the repository "
        + "(usually the path is wrong), or restore the file: Xcode cannot build the target either"

    /// A target that is no CloudKit target but names an entitlements file that cannot be read:
    /// a build problem, named as such, with no iCloud advice.
    func buildProblemCheck() -> DoctorCheck {
        var found: [String] = [], locations: [SourceLocation] = []
        for build in facts.builds {
            guard case .failure(let error)? = build.entitlements else { continue }
            let named = build.entitlementsSetting?.location
            if let named { locations.append(named) }
            let at = named.map { " at \($0)" } ?? ""
            found.append("\(build.label): \(facts.relative(build.entitlementsPath ?? "")), "
                + "named by CODE_SIGN_ENTITLEMENTS\(at): \(Self.shortReason(error))")
        }
        return check(
            .containerEntitlements, .failure, "Entitlements file (CODE_SIGN_ENTITLEMENTS)",
            Self.merge(found).ifEmpty(found.joined(separator: "\n"))
                + "\n(the target has no CloudKit code: this is a build problem, not an iCloud one)",
            action: Self.unreadableAction, locations: Self.unique(locations))
    }

    /// `does not exist` rather than the absolute path again.
    static func shortReason(_ error: XcodeProjectError) -> String {
        switch error {
        case .notFound: return "the file does not exist"
        case .unreadable(_, let reason): return "cannot be read (\(reason))"
        case .malformed(_, _, let reason): return reason
        default: return error.localizedDescription
        }
    }

    /// `Debug: a; Release: a` reads as `a (Debug, Release)`.
    static func merge(_ lines: [String]) -> String {
        var order: [String] = []
        var labels: [String: [String]] = [:]
        for line in lines {
            let parts = line.split(separator: ":", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count == 2 else { continue }
            if labels[parts[1]] == nil { order.append(parts[1]) }
            labels[parts[1], default: []].append(parts[0])
        }
        return order.map { "\($0) (\(labels[$0, default: []].joined(separator: ", ")))" }.joined(
            separator: "; ")
    }

    private func containersCheck() -> DoctorCheck {
        let checked = "iCloud containers in the entitlements"
        var listed: [String] = [], notes: [String] = [], unresolved: [String] = [],
            missing: [String] = []
        var locations: [SourceLocation] = []
        for build in facts.builds {
            guard let file = build.file else { continue }
            if build.containers.isEmpty, build.usesCloudKitService {
                missing.append(
                    "\(build.label): \(facts.relative(file.path)) lists CloudKit but no container")
            }
            for (written, value) in build.containers {
                let location = facts.location(of: written, in: file)
                if !locations.contains(location) { locations.append(location) }
                guard value.isResolved else {
                    unresolved.append("\(build.label): a container in \(location) cannot be resolved: \(TargetFacts.describe(value.unresolved))")
                    continue
                }
                listed.append("\(build.label): \(value.value) (\(location))")
                if let bundleID = build.bundleID?.value, build.bundleID?.isResolved == true,
                    value.value != "iCloud." + bundleID
                {
                    notes.append(
                        "\(value.value) is not named after the bundle id \(bundleID): Apple allows this (a shared or older container)"
                    )
                }
            }
        }
        let found = ([Self.merge(listed)] + Array(Set(notes)).sorted()).filter { !$0.isEmpty }
            .joined(separator: "\n")
        if !missing.isEmpty, facts.usesCloudKitInCode {
            return check(
                .containerEntitlementContainers, .failure, checked,
                (missing + [found]).filter { !$0.isEmpty }.joined(separator: "\n"),
                action: "choose the container under Signing & Capabilities > iCloud > Containers",
                locations: locations)
        }
        if !unresolved.isEmpty {
            return check(
                .containerEntitlementContainers, .warning, checked,
                (unresolved + [Self.merge(missing), found]).filter { !$0.isEmpty }.joined(
                    separator: "\n"),
                action:
                    "set the variable where the project expects it (often an xcconfig the repository leaves out), then run doctor again",
                locations: locations)
        }
        if !missing.isEmpty {
            // An empty list is no variable to set: the advice is the capability itself.
            return check(
                .containerEntitlementContainers, .warning, checked,
                [Self.merge(missing), found].filter { !$0.isEmpty }.joined(separator: "\n"),
                action:
                    "choose the container under Signing & Capabilities > iCloud > Containers: until one is listed, "
                    + "SwiftData's .automatic and CKContainer.default() sync nothing",
                locations: locations)
        }
        return check(
            .containerEntitlementContainers, .ok, checked, found.isEmpty ? "none listed" : found,
            locations: locations)
    }

    private func servicesCheck() -> DoctorCheck {
        let checked = "CloudKit among the iCloud services (\(TargetFacts.servicesKey))"
        let without = facts.builds.filter { $0.file != nil && !$0.usesCloudKitService }
        guard !without.isEmpty else {
            return check(.containerICloudServices, .ok, checked, "CloudKit is listed")
        }
        let found = without.map {
            "\($0.label): \($0.services.joined(separator: ", ").ifEmpty("none"))"
        }
        guard facts.usesCloudKitInCode else {
            return check(.containerICloudServices, .ok, checked,
                         "CloudKit is not listed (\(found.joined(separator: "; "))), and the code does not use it")
        }
        // Without iCloud at all, only the target's own code surely runs; shared code may not.
        let breaks = facts.hasICloud || facts.references.contains(where: facts.isOwnCode)
        return check(
            .containerICloudServices, breaks ? .failure : .warning, checked,
            "CloudKit is not listed in " + found.joined(separator: "; ")
                + (breaks ? "" : " (the CloudKit code is shared code that may not run here)"),
            action: "tick CloudKit under Signing & Capabilities > iCloud > Services",
            locations: without.compactMap { build in
                build.file.map {
                    SourceLocation(
                        path: facts.relative($0.path), line: $0.line(ofKey: TargetFacts.servicesKey)
                    )
                }
            })
    }

    private func apsCheck() -> DoctorCheck {
        var missing: [String] = [], found: [String] = []
        var locations: [SourceLocation] = []
        for build in facts.builds where build.usesCloudKitService {
            guard let file = build.file else { continue }
            // A native macOS build needs com.apple.developer.aps-environment; iOS (and Mac
            // Catalyst, which Xcode maps) aps-environment.
            let native = build.variant.context.sdk == "macosx" && !build.variant.catalyst
            let key = native ? "com.apple.developer.aps-environment" : "aps-environment"
            let value =
                file.string(key)
                ?? (native ? nil : file.string("com.apple.developer.aps-environment"))
            if let value, ["development", "production"].contains(value.lowercased()) {
                found.append("\(build.label): \(key) \(value)")
            } else {
                let iOSKeyOnMac =
                    native && file.string("aps-environment") != nil
                    ? " (aps-environment is the iOS key)" : ""
                let problem =
                    value.map { "\"\($0)\" is not development or production" } ?? "missing"
                missing.append(
                    "\(build.label): \(key) \(problem)\(iOSKeyOnMac) in \(facts.relative(file.path))"
                )
                locations.append(
                    SourceLocation(path: facts.relative(file.path), line: file.line(ofKey: key)))
            }
        }
        let checked = "Push notifications (aps-environment)"
        guard missing.isEmpty else {
            return check(
                .containerApsEnvironment, .warning, checked,
                missing.joined(separator: "; ")
                    + ": CloudKit changes reach the app only when it next fetches",
                action: "add the Push Notifications capability (it writes the key)",
                locations: locations)
        }
        return check(
            .containerApsEnvironment, .ok, checked,
            Self.merge(found).ifEmpty("not needed: CloudKit is not among the services"))
    }

    private func sourcesCheck() -> DoctorCheck {
        SourceChecks(facts: facts).check(target: target)
    }
}

extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
