import Foundation

/// The entitlements file each app configuration names (`CODE_SIGN_ENTITLEMENTS`): that it exists,
/// that its iCloud containers follow the rule, that CloudKit is among its iCloud services, and that
/// push notifications (`aps-environment`) are enabled.
struct EntitlementsChecks {
    static let containersKey = "com.apple.developer.icloud-container-identifiers"
    static let servicesKey = "com.apple.developer.icloud-services"
    static let apsKey = "aps-environment"

    let project: XcodeProject
    let rule: ContainerRule
    let relative: (String) -> String

    /// One entitlements file and the configurations (with their bundle ids) that use it.
    struct Use {
        let path: String
        /// Where each configuration names the file.
        var settings: [SourceLocation]
        var configurations: [AppBuildConfiguration]
    }

    func run() -> [DoctorCheck] {
        var problems: [String] = []
        var locations: [SourceLocation] = []
        var files: [(XMLPlistFile, Use)] = []
        for use in uses(problems: &problems, locations: &locations) {
            do {
                files.append((try XMLPlistFile.read(use.path), use))
            } catch {
                let named = use.settings.map(\.description).joined(separator: ", ")
                problems.append("\(relative(use.path)), named by CODE_SIGN_ENTITLEMENTS at \(named): \(error.localizedDescription)")
                locations += use.settings
            }
        }
        let checked = "Entitlements file (CODE_SIGN_ENTITLEMENTS)"
        let fileCheck = problems.isEmpty
            ? DoctorCheck("container.entitlements", .container, .ok, checked: checked,
                          found: files.map { "\(relative($0.0.path)) (\($0.1.configurations.map(\.name).joined(separator: ", ")))" }.joined(separator: "; "),
                          locations: files.flatMap { $0.1.settings })
            : DoctorCheck("container.entitlements", .container, .failure, checked: checked, found: problems.joined(separator: "\n"),
                          action: "add the iCloud capability with CloudKit in Xcode (Signing & Capabilities), which writes the entitlements file and the setting",
                          locations: locations)
        guard !files.isEmpty else { return [fileCheck] }
        return [fileCheck, containersCheck(files), servicesCheck(files), apsCheck(files)]
    }

    private func uses(problems: inout [String], locations: inout [SourceLocation]) -> [Use] {
        var byPath: [String: Use] = [:]
        for configuration in project.configurations {
            guard let setting = configuration.entitlementsPath, !setting.value.isEmpty else {
                problems.append("\(configuration.name) has no CODE_SIGN_ENTITLEMENTS: the app is built without iCloud")
                continue
            }
            let path = project.path(fromSetting: setting.value)
            let location = SourceLocation(path: relative(project.pbxprojPath), line: setting.line)
            byPath[path, default: Use(path: path, settings: [], configurations: [])].configurations.append(configuration)
            byPath[path]?.settings.append(location)
        }
        return byPath.values.sorted { $0.path < $1.path }
    }

    private func containersCheck(_ files: [(XMLPlistFile, Use)]) -> DoctorCheck {
        var found: [String] = []
        var wrong: [String] = []
        var locations: [SourceLocation] = []
        for (file, use) in files {
            let bundleIDs = use.configurations.compactMap { $0.bundleID?.value }
            guard let identifiers = file.strings(Self.containersKey), !identifiers.isEmpty else {
                wrong.append("\(relative(file.path)) lists no \(Self.containersKey)")
                locations.append(SourceLocation(path: relative(file.path), line: file.line(ofKey: Self.containersKey)))
                continue
            }
            for identifier in identifiers {
                let values = Set(bundleIDs.map { ContainerRule.substitute(identifier, bundleID: $0) })
                let location = SourceLocation(path: relative(file.path), line: file.line(ofValue: identifier, after: Self.containersKey))
                locations.append(location)
                if values.allSatisfy({ rule.accepts($0, bundleIDs: bundleIDs) }) {
                    found.append("\(values.sorted().joined(separator: ", ")) (\(location))")
                } else {
                    wrong.append("\(identifier) (\(location)) does not match \(rule.explanation(for: bundleIDs))")
                }
            }
        }
        let checked = "iCloud containers in the entitlements"
        guard wrong.isEmpty else {
            return DoctorCheck("container.entitlementContainers", .container, .failure, checked: checked, found: wrong.joined(separator: "\n"),
                               action: "list iCloud.<bundle id> under \(Self.containersKey) (Signing & Capabilities > iCloud > Containers)",
                               locations: locations)
        }
        return DoctorCheck("container.entitlementContainers", .container, .ok, checked: checked,
                           found: found.joined(separator: "; "), locations: locations)
    }

    private func servicesCheck(_ files: [(XMLPlistFile, Use)]) -> DoctorCheck {
        let missing = files.filter { !($0.0.strings(Self.servicesKey) ?? []).contains("CloudKit") }
        let checked = "CloudKit among the iCloud services (\(Self.servicesKey))"
        guard missing.isEmpty else {
            let found = missing.map { "\(relative($0.0.path)): \(($0.0.strings(Self.servicesKey) ?? []).joined(separator: ", ").ifEmpty("none"))" }
            return DoctorCheck("container.iCloudServices", .container, .failure, checked: checked,
                               found: "CloudKit is not listed in " + found.joined(separator: "; "),
                               action: "tick CloudKit under Signing & Capabilities > iCloud > Services",
                               locations: missing.map { SourceLocation(path: relative($0.0.path), line: $0.0.line(ofKey: Self.servicesKey)) })
        }
        return DoctorCheck("container.iCloudServices", .container, .ok, checked: checked, found: "CloudKit is listed")
    }

    private func apsCheck(_ files: [(XMLPlistFile, Use)]) -> DoctorCheck {
        let checked = "Push notifications (\(Self.apsKey))"
        let values = files.map { ($0.0, $0.0.string(Self.apsKey)) }
        let missing = values.filter { $0.1 == nil || !["development", "production"].contains($0.1 ?? "") }
        guard missing.isEmpty else {
            return DoctorCheck("container.apsEnvironment", .container, .warning, checked: checked,
                               found: missing.map { "\(relative($0.0.path)): \($0.1.map { "\"\($0)\" is not development or production" } ?? "missing")" }
                                   .joined(separator: "; ") + ": CloudKit changes reach the app only when it next fetches",
                               action: "add the Push Notifications capability (it writes aps-environment)",
                               locations: missing.map { SourceLocation(path: relative($0.0.path), line: $0.0.line(ofKey: Self.apsKey)) })
        }
        return DoctorCheck("container.apsEnvironment", .container, .ok, checked: checked,
                           found: Set(values.compactMap(\.1)).sorted().joined(separator: ", "))
    }
}

extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
