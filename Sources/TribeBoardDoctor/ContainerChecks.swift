import Foundation
import TribeBoardCloudKit
import TribeBoardSupport
import TribeBoardXcodeProject

/// Where the toolkit's own container setting came from, to name it in a mismatch.
struct ToolkitContainer: Sendable, Equatable {
    package let value: String
    /// `--container`, `TRIBEBOARD_CK_CONTAINER`, `config file PATH` or `the default`.
    package let source: String

    package init(value: String, source: String) {
        self.value = value
        self.source = source
    }
}

/// Section 1: the Xcode project read as Xcode reads it (xcconfig files, conditions, every
/// target), each CloudKit target checked on its own, then the toolkit's container against them.
struct ContainerChecks {
    let projectPath: String?
    var targetFilter: String?
    let toolkit: ToolkitContainer?

    init(projectPath: String?, targetFilter: String? = nil, toolkit: ToolkitContainer?) {
        self.projectPath = projectPath
        self.targetFilter = targetFilter
        self.toolkit = toolkit
    }

    func run() -> [DoctorCheck] {
        guard let projectPath else {
            return [DoctorCheck(.containerProject, .container, .warning, checked: "Xcode project",
                                found: "not checked: no --project given",
                                action: "pass --project PATH (the folder holding TribeBoard.xcodeproj) to check the app's identifiers"),
                    toolkitCheck(listed: nil)]
        }
        let gathered: Gathered
        do {
            gathered = try Self.gather(projectPath)
        } catch {
            return [DoctorCheck(.containerProject, .container, .failure, checked: "Xcode project", found: error.localizedDescription,
                                action: Self.action(for: error)),
                    toolkitCheck(listed: nil, why: "the project could not be read")]
        }
        let (location, projects, all) = (gathered.location, gathered.projects, gathered.facts)
        var checks = [projectCheck(projects, location: location, facts: all)]
        var chosen = all
        if let targetFilter {
            chosen = all.filter { $0.target.name == targetFilter }
            if chosen.isEmpty, let other = projects.flatMap(\.targets).first(where: { $0.name == targetFilter }) {
                var check = DoctorCheck(.containerTarget, .container, .ok, checked: "Target \(targetFilter)",
                                        found: "not checked: a \(other.productType.split(separator: ".").last ?? "target") target carries"
                                            + " no entitlements of its own (its code is judged with the apps and extensions that link it)")
                check.target = targetFilter
                checks.append(check)
            } else if chosen.isEmpty {
                let names = projects.flatMap(\.targets).map(\.name)
                checks.append(DoctorCheck(.containerTarget, .container, .failure, checked: "Target \(targetFilter)",
                                          found: "no target named \(targetFilter); the project has \(names.joined(separator: ", "))",
                                          action: "pass --target one of the names above"))
            }
        }
        // The same verdict alone as in the full run: a target that is not a CloudKit target is not
        // judged as one; an entitlements file that cannot be read is a build problem either way.
        for facts in chosen {
            if facts.isRelevant {
                checks += TargetChecks(facts: facts).run()
            } else if facts.hasUnreadableEntitlements {
                checks.append(TargetChecks(facts: facts).buildProblemCheck())
            } else if targetFilter != nil {
                var check = DoctorCheck(
                    .containerTarget, .container, .ok, checked: "Target \(facts.target.name)",
                    found:
                        "not checked: without iCloud and without CloudKit code, as in the full run")
                check.target = facts.target.name
                checks.append(check)
            }
        }
        let listed = chosen.filter(\.isRelevant).flatMap(\.cloudKitContainers)
        let used = chosen.filter(\.isRelevant).map { SourceChecks(facts: $0).containersUsed() }
        checks.append(toolkitCheck(listed: listed.isEmpty ? nil : Array(Set(listed)).sorted(),
                                   why: projects.isEmpty ? "no project was read"
                                    : "the project's entitlements list no CloudKit container doctor can resolve",
                                   usedByCode: used.contains { $0 == nil } ? nil
                                    : used.compactMap { $0 }.reduce(into: Set()) { $0.formUnion($1) }))
        if let lookup = FamilyLookupCheck.check(chosen) { checks.append(lookup) }
        return checks
    }

    /// The projects `--project` leads to, and what doctor gathers about each of their targets.
    struct Gathered {
        let location: ProjectLocation
        let projects: [XcodeProject]
        let facts: [TargetFacts]
    }

    static func gather(_ projectPath: String) throws(XcodeProjectError) -> Gathered {
        let location = try ProjectLocation.locate(projectPath)
        let display = { (path: String) in ProjectLocation.relative(path, to: location.root) }
        var projects: [XcodeProject] = []
        for bundle in location.bundles {
            projects.append(try XcodeProject.read(bundle: bundle, display: display))
        }
        let linked = LinkedCode(projects: projects + subprojects(of: projects))
        // A file several targets compile (or a framework several link) is shared code: it may not
        // run in each.
        var compiledBy: [String: Int] = [:]
        for target in projects.flatMap(\.targets) where target.kind != .other {
            for file in Set(
                (target.sourceFiles ?? []) + target.packageSourceFiles + linked.files(for: target))
            { compiledBy[file, default: 0] += 1 }
        }
        let shared = Set(compiledBy.filter { $0.value > 1 }.keys)
        var all: [TargetFacts] = []
        let scans = SwiftContainerLiterals.ScanCache()
        for project in projects {
            var swiftFiles: [String]?
            for target in project.targets where target.kind != .other {
                all.append(
                    TargetFacts(
                        project: project, target: target,
                        allSwiftFiles: {
                            if swiftFiles == nil {
                                swiftFiles = SwiftContainerLiterals.codeFiles(below: project.folder)
                            }
                            return swiftFiles ?? []
                        }(), linkedFiles: linked.files(for: target), sharedFiles: shared,
                        display: display, scans: scans))
            }
        }
        return Gathered(location: location, projects: projects, facts: all)
    }

    /// Projects named in `projectReferences`, followed a few levels down, for the frameworks they
    /// build.
    static func subprojects(of projects: [XcodeProject]) -> [XcodeProject] {
        var seen = Set(projects.map(\.pbxprojPath)), found: [XcodeProject] = []
        var queue = projects.flatMap(\.subprojects)
        while let bundle = queue.popLast(), found.count < 32 {
            guard
                let project = try? XcodeProject.read(
                    bundle: CaseInsensitivePath.resolve(bundle)?.path ?? bundle, display: { $0 }),
                seen.insert(project.pbxprojPath).inserted
            else { continue }
            found.append(project)
            queue += project.subprojects
        }
        return found
    }

    private static func action(for error: Error) -> String {
        switch error as? XcodeProjectError {
        case .notGenerated(_, _, let command)?, .partlyGenerated(_, _, _, let command)?:
            return "run `\(command)`, then pass --project the folder again"
        case .conflicted?:
            return "resolve the merge conflict (keep one side of each <<<<<<< … >>>>>>> block, or `git checkout --theirs`/`--ours`"
                + " the file), then run doctor again"
        case .unreadable(_, let reason)? where reason.hasPrefix("a "):
            return "replace it with the project file itself (checked out again from version control), then run doctor again"
        case .severalProjects(let path, let projects)?:
            // Written from where doctor was run, so that each runs as printed.
            let options = projects.map { project in
                ShellWords.command(
                    ShellWords.option(
                        "--project", (path as NSString).appendingPathComponent(project)))
            }
            return "pass --project one of them: " + options.joined(separator: " or ")
        default: return "pass --project the folder holding the app's .xcodeproj or .xcworkspace, or the .xcodeproj itself"
        }
    }

    private func projectCheck(
        _ projects: [XcodeProject], location: ProjectLocation, facts: [TargetFacts]
    ) -> DoctorCheck {
        let names = projects.map { ProjectLocation.relative($0.pbxprojPath, to: location.root) }
            .joined(separator: ", ")
        // A watchOS app built as a plain application (Xcode 14 on) is a watch app all the same.
        let title = { (target: XcodeTarget) in
            target.kind == .app && target.sdks == ["watchos"]
                ? TargetKind.watchApp.title : target.kind.title
        }
        let relevant = facts.filter(\.isRelevant).map { "\($0.target.name) (\(title($0.target)))" }
        let skipped = facts.filter { !$0.isRelevant }.map(\.target.name)
        let broken = facts.filter { !$0.isRelevant && $0.hasUnreadableEntitlements }.map(
            \.target.name)
        var lines = [
            "\(names): CloudKit targets \(relevant.joined(separator: ", ").ifEmpty("none"))"
        ]
        if !skipped.isEmpty {
            lines.append("without iCloud and without CloudKit code (not checked): \(skipped.joined(separator: ", "))")
        }
        if !broken.isEmpty {
            lines.append("with an entitlements file that cannot be read (a build problem, below): \(broken.joined(separator: ", "))")
        }
        lines += location.notes
        let caseNote = location.notes.contains { $0.contains("ignoring case") }
        if facts.isEmpty {
            let examples = Self.appProjects(beside: projects, root: location.root)
            let found = "\(names) has no app, extension, watch app or App Clip target"
                + (projects.contains { !$0.targets.isEmpty }
                    ? " (only \(Self.kinds(projects))): a framework or library, whose entitlements are the app's"
                    : "")
                + (examples.isEmpty
                    ? ""
                    : "\nprojects with apps beside it: "
                        + examples.map { "\($0.path) (\($0.apps.joined(separator: ", ")))" }.joined(
                            separator: "; "))
            let action =
                examples.first.map { "point --project at the app's project: \($0.path)" }
                ?? "point --project at the app's project"
            return DoctorCheck(
                .containerProject, .container, .failure, checked: "Xcode project", found: found,
                action: action)
        }
        return DoctorCheck(
            .containerProject, .container, caseNote ? .warning : .ok, checked: "Xcode project",
            found: lines.joined(separator: "\n"),
            action: caseNote
                ? "write the path as it is on disk: a case-sensitive volume would not find it" : nil
        )
    }

    /// `framework, unit tests`: what the targets of a project without apps build.
    private static func kinds(_ projects: [XcodeProject]) -> String {
        let kinds = projects.flatMap(\.targets).map {
            String($0.productType.split(separator: ".").last ?? "target")
        }
        return Array(Set(kinds)).sorted().joined(separator: ", ")
    }

    /// Projects below the root (an example or demo app beside a framework) with app targets.
    static func appProjects(beside projects: [XcodeProject], root: String) -> [(
        path: String, apps: [String]
    )] {
        let read = Set(projects.map { ($0.pbxprojPath as NSString).deletingLastPathComponent })
        return ProjectLocation.allProjects(below: root).filter { !read.contains($0) }.compactMap {
            bundle in
            guard let project = try? XcodeProject.read(bundle: bundle, display: { $0 }) else {
                return nil
            }
            let apps = project.targets.filter { $0.kind != .other }.map(\.name)
            return apps.isEmpty ? nil : (ProjectLocation.relative(bundle, to: root), apps)
        }
    }

    /// The toolkit writes where the app reads only if the app's entitlements list its container.
    /// `usedByCode`: the containers the CloudKit targets' code reaches, nil when any cannot be
    /// verified; an entitlement the code never uses (a test container kept listed) is no place to
    /// write.
    private func toolkitCheck(
        listed: [String]?, why: String = "no --project given", usedByCode: Set<String>? = nil
    ) -> DoctorCheck {
        let checked = "The toolkit's container (--container, TRIBEBOARD_CK_CONTAINER, config file)"
        guard let toolkit else {
            return DoctorCheck(.containerToolkit, .container, .warning, checked: checked,
                               found: "not checked: the toolkit's CloudKit settings cannot be read (see the remote checks)")
        }
        let given = "\(toolkit.value) (from \(toolkit.source))"
        let fail = { (found: String, container: String) in
            DoctorCheck(
                .containerToolkit, .container, .failure, checked: checked, found: given + found,
                action:
                    "set --container (or TRIBEBOARD_CK_CONTAINER) to \(container): records written elsewhere are invisible to the app"
            )
        }
        let ok = { (found: String) in
            DoctorCheck(.containerToolkit, .container, .ok, checked: checked, found: given + found)
        }
        guard let listed else {
            guard ContainerRule.acceptsWithoutProject(toolkit.value) else {
                return fail(" is not the app's container \(ContainerRule.expected) (the app's published bundle id"
                            + " \(CloudKitConfiguration.bundleID)); \(why), so that is the one compared", ContainerRule.expected)
            }
            return ok(": \(why), so it is compared with the app's published container \(ContainerRule.expected) only")
        }
        let all = listed.joined(separator: ", ")
        guard listed.contains(toolkit.value) else {
            return fail(
                " is not among the containers the project's entitlements list: \(all)",
                "the app's container, one of \(all)")
        }
        if let usedByCode, !usedByCode.isEmpty, !usedByCode.contains(toolkit.value) {
            let used = usedByCode.sorted().joined(separator: ", ")
            return fail(
                " is listed in the project's entitlements, but the app's code uses only \(used)",
                "the container the code uses, \(used)")
        }
        return ok(
            ", listed in the project's entitlements"
                + (usedByCode?.contains(toolkit.value) == true ? " and used by the app's code" : "")
        )
    }
}
