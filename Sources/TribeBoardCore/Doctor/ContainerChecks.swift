import Foundation

/// Where the toolkit's own container setting came from, to name it in a mismatch.
public struct ToolkitContainer: Sendable, Equatable {
    public let value: String
    /// `--container`, `TRIBEBOARD_CK_CONTAINER`, `config file PATH` or `the default`.
    public let source: String

    public init(value: String, source: String) {
        self.value = value
        self.source = source
    }
}

/// Section 1: the app's container identifiers against `iCloud.` + bundle id, in the Xcode project
/// (build settings, entitlements, Info.plist, Swift sources) and in the toolkit's own settings.
struct ContainerChecks {
    let projectPath: String?
    let toolkit: ToolkitContainer?

    func run() -> [DoctorCheck] {
        guard let projectPath else {
            return [DoctorCheck("container.project", .container, .warning, checked: "Xcode project",
                                found: "not checked: no --project given",
                                action: "pass --project PATH (the folder holding TribeBoard.xcodeproj) to check the app's identifiers"),
                    toolkitCheck(ContainerRule.appDefault)]
        }
        let project: XcodeProject
        do {
            project = try XcodeProject.load(projectPath)
        } catch {
            return [DoctorCheck("container.project", .container, .failure, checked: "Xcode project",
                                found: error.localizedDescription,
                                action: "pass --project the folder holding the app's .xcodeproj, or the .xcodeproj itself"),
                    toolkitCheck(ContainerRule.appDefault)]
        }
        var checks = [projectCheck(project)]
        let rule = ContainerRule(sources: project.configurations.compactMap { configuration in
            configuration.bundleID.map { ContainerRule.Source(bundleID: $0.value, configuration: configuration.name,
                                                              location: location(project, project.pbxprojPath, $0.line)) }
        })
        checks.append(bundleIDCheck(project, rule: rule))
        guard !rule.sources.isEmpty else { return checks + [toolkitCheck(ContainerRule.appDefault)] }
        let entitlements = EntitlementsChecks(project: project, rule: rule, relative: { self.relative(project, $0) })
        checks += entitlements.run()
        checks.append(BackgroundModesCheck(project: project, relative: { self.relative(project, $0) }).run())
        checks.append(sourcesCheck(project, rule: rule))
        checks.append(toolkitCheck(rule))
        return checks
    }

    private func projectCheck(_ project: XcodeProject) -> DoctorCheck {
        let targets = Set(project.configurations.compactMap(\.target)).sorted()
        let names = project.configurations.map(\.name)
        guard !project.configurations.isEmpty else {
            return DoctorCheck("container.project", .container, .failure, checked: "Xcode project",
                               found: "\(project.pbxprojPath) has no application target and no configuration with PRODUCT_BUNDLE_IDENTIFIER",
                               action: "point --project at the app's project")
        }
        let target = targets.isEmpty ? "" : "app target \(targets.joined(separator: ", ")), "
        return DoctorCheck("container.project", .container, .ok, checked: "Xcode project",
                           found: "\(project.pbxprojPath): \(target)configurations \(names.joined(separator: ", "))")
    }

    private func bundleIDCheck(_ project: XcodeProject, rule: ContainerRule) -> DoctorCheck {
        let missing = project.configurations.filter { $0.bundleID == nil }.map(\.name)
        let checked = "Bundle identifier (PRODUCT_BUNDLE_IDENTIFIER)"
        let places = rule.sources.map { "\($0.configuration): \($0.bundleID) (\($0.location))" }.joined(separator: "; ")
        if !missing.isEmpty {
            return DoctorCheck("container.bundleID", .container, .failure, checked: checked,
                               found: "no PRODUCT_BUNDLE_IDENTIFIER in \(missing.joined(separator: ", "))" + (places.isEmpty ? "" : "; \(places)"),
                               action: "set the bundle id of every configuration in Xcode (target > Signing & Capabilities)",
                               locations: [SourceLocation(path: relative(project, project.pbxprojPath), line: nil)])
        }
        if let unresolved = rule.sources.first(where: { $0.bundleID.contains("$") }) {
            return DoctorCheck("container.bundleID", .container, .warning, checked: checked,
                               found: "\(unresolved.bundleID) (\(unresolved.location)) uses a variable doctor cannot resolve",
                               action: "compare the containers below with the bundle id Xcode shows", locations: rule.sources.map(\.location))
        }
        if rule.bundleIDs.count > 1 {
            return DoctorCheck("container.bundleID", .container, .warning, checked: checked,
                               found: "configurations differ: \(places)",
                               action: "each configuration then needs its own container iCloud.<bundle id>; make sure that is intended",
                               locations: rule.sources.map(\.location))
        }
        return DoctorCheck("container.bundleID", .container, .ok, checked: checked, found: places, locations: rule.sources.map(\.location))
    }

    private func sourcesCheck(_ project: XcodeProject, rule: ContainerRule) -> DoctorCheck {
        let literals = SwiftContainerLiterals.scan(folder: project.folder)
        let checked = "Container identifiers in Swift sources (ModelConfiguration cloudKitDatabase, CKContainer)"
        guard !literals.isEmpty else {
            return DoctorCheck("container.swiftSources", .container, .ok, checked: checked,
                               found: "no \"iCloud.…\" literal in the Swift sources: SwiftData uses the entitlements' first container")
        }
        let wrong = literals.filter { !rule.accepts($0.value) }
        let located = { (literal: ContainerLiteral) in SourceLocation(path: self.relative(project, literal.location.path), line: literal.location.line) }
        guard wrong.isEmpty else {
            let found = wrong.map { "\($0.value) (\(located($0)), \(Self.describe($0.context))) does not match \(rule.explanation())" }
            return DoctorCheck("container.swiftSources", .container, .failure, checked: checked, found: found.joined(separator: "\n"),
                               action: "change the literal to \(rule.expected().joined(separator: " or ")): a mismatch makes ModelContainer creation fail at launch",
                               locations: wrong.map(located))
        }
        return DoctorCheck("container.swiftSources", .container, .ok, checked: checked,
                           found: literals.map { "\($0.value) (\(located($0)))" }.joined(separator: "; "), locations: literals.map(located))
    }

    private static func describe(_ context: ContainerLiteral.Context) -> String {
        switch context {
        case .modelConfiguration: return "ModelConfiguration cloudKitDatabase"
        case .ckContainer: return "CKContainer(identifier:)"
        case .other: return "string literal"
        }
    }

    private func toolkitCheck(_ rule: ContainerRule) -> DoctorCheck {
        let checked = "The toolkit's container (--container, TRIBEBOARD_CK_CONTAINER, config file)"
        guard let toolkit else {
            return DoctorCheck("container.toolkit", .container, .warning, checked: checked,
                               found: "not checked: the toolkit's CloudKit settings cannot be read (see the remote checks)")
        }
        guard rule.accepts(toolkit.value) else {
            return DoctorCheck("container.toolkit", .container, .failure, checked: checked,
                               found: "\(toolkit.value) (from \(toolkit.source)) does not match \(rule.explanation())",
                               action: "set --container (or TRIBEBOARD_CK_CONTAINER) to \(rule.expected().joined(separator: " or ")): records written elsewhere are invisible to the app")
        }
        return DoctorCheck("container.toolkit", .container, .ok, checked: checked, found: "\(toolkit.value) (from \(toolkit.source))")
    }

    private func location(_ project: XcodeProject, _ path: String, _ line: Int?) -> SourceLocation {
        SourceLocation(path: relative(project, path), line: line)
    }

    /// Paths under the project folder are shown relative to it, as Xcode shows them.
    func relative(_ project: XcodeProject, _ path: String) -> String {
        let prefix = project.folder.hasSuffix("/") ? project.folder : project.folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
