import Foundation

/// What `--project` points at, followed the way people hand it over: an `.xcodeproj`, an
/// `.xcworkspace` (its projects), a folder holding either, or one a level or two below.
package struct ProjectLocation: Sendable, Equatable {
    /// Paths in findings are shown relative to this folder.
    package let root: String
    /// `.xcodeproj` bundles, absolute.
    package let bundles: [String]
    /// How the projects were found when it was not the obvious way (case, depth, workspace).
    package let notes: [String]

    static let skipped: Set<String> = [
        ".build", ".git", "DerivedData", "Pods", "Carthage", "node_modules", ".swiftpm", "build"
    ]

    package static func locate(_ given: String) throws(XcodeProjectError) -> ProjectLocation {
        let trimmed = given.count > 1 && given.hasSuffix("/") ? String(given.dropLast()) : given
        let absolute = URL(fileURLWithPath: trimmed).standardizedFileURL.path
        guard let found = CaseInsensitivePath.resolve(absolute) else { throw .notFound(path: given) }
        var notes = found.caseDiffers ? ["\(given) is \(found.path) on disk: found only ignoring case"] : []
        let path = found.path
        if path.hasSuffix(".xcodeproj") {
            let bundle = followLink(path, notes: &notes)
            return ProjectLocation(
                root: (path as NSString).deletingLastPathComponent, bundles: [bundle], notes: notes)
        }
        if path.hasSuffix(".xcworkspace") {
            let root = (path as NSString).deletingLastPathComponent
            return ProjectLocation(
                root: root, bundles: try workspaceProjects(path),
                notes: notes + ["followed the workspace \((path as NSString).lastPathComponent)"])
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .noProjectInFolder(path: given)
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? []
        var projects = entries.filter { $0.hasSuffix(".xcodeproj") }
        // A `.xcodeproj` folder left behind with only its workspace (no `project.pbxproj`) is no
        // project: Xcode cannot open it, so it does not compete with the one that is.
        let whole = projects.filter { isWhole(path + "/" + $0) }
        if projects.count > 1, !whole.isEmpty, whole.count < projects.count {
            notes += projects.filter { $0 != whole[0] }.map {
                "\($0) has no project.pbxproj (not a project): left out"
            }
            projects = whole
        }
        let manifest = generatorManifest(in: path)
        if projects.count == 1 {
            let bundle = followLink(path + "/" + projects[0], notes: &notes)
            // `*.xcodeproj/*` ignored but for a committed Package.resolved: the generator's
            // project, half there.
            if let manifest, !FileManager.default.fileExists(atPath: bundle + "/project.pbxproj") {
                throw .partlyGenerated(
                    path: given, bundle: projects[0], manifest: manifest.file,
                    command: manifest.command)
            }
            return ProjectLocation(root: path, bundles: [bundle], notes: notes)
        }
        let workspaces = entries.filter { $0.hasSuffix(".xcworkspace") }
        if workspaces.count == 1, let bundles = try? workspaceProjects(path + "/" + workspaces[0]), !bundles.isEmpty {
            return ProjectLocation(root: path, bundles: bundles, notes: notes + ["followed the workspace \(workspaces[0])"])
        }
        if projects.count > 1 { throw .severalProjects(path: given, projects: projects) }
        if let manifest {
            throw .notGenerated(path: given, manifest: manifest.file, command: manifest.command)
        }
        let below = projectsBelow(path, depth: 2)
        guard !below.isEmpty else { throw .noProjectInFolder(path: given) }
        guard below.count == 1 else {
            throw .severalProjects(path: given, projects: below.map { relative($0, to: path) })
        }
        notes.append("found \(relative(below[0], to: path)) below \(given)")
        return ProjectLocation(root: path, bundles: below, notes: notes)
    }

    /// XcodeGen's and Tuist's manifests (Tuist 4 names the workspace or only `Tuist.swift` at the root).
    static let manifests = [
        ("project.yml", "xcodegen generate"), ("project.yaml", "xcodegen generate"),
        ("Project.swift", "tuist generate"),
        ("Workspace.swift", "tuist generate"), ("Tuist.swift", "tuist generate"),
        ("Tuist/Config.swift", "tuist generate")
    ]

    static func generatorManifest(in folder: String) -> (file: String, command: String)? {
        manifests.first { FileManager.default.fileExists(atPath: folder + "/" + $0.0) }.map {
            ($0.0, $0.1)
        }
    }

    /// A `.xcodeproj` that is a symbolic link (a root link into a subfolder): the project is where
    /// it points, and its relative paths start there.
    static func followLink(_ bundle: String, notes: inout [String]) -> String {
        var current = bundle
        for _ in 0..<8 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
            else { break }
            current =
                URL(
                    fileURLWithPath: FilePaths.join(
                        (current as NSString).deletingLastPathComponent, target)
                ).standardizedFileURL.path
        }
        if current != bundle {
            let shown = relative(current, to: (bundle as NSString).deletingLastPathComponent)
            notes.append(
                "\((bundle as NSString).lastPathComponent) is a link to \(shown): read there")
        }
        return current
    }

    /// The projects a workspace names (`group:`, `container:`, `absolute:` locations), CocoaPods'
    /// left out.
    static func workspaceProjects(_ workspace: String) throws(XcodeProjectError) -> [String] {
        let data = workspace + "/contents.xcworkspacedata"
        let text = String(
            decoding: try ProjectFileReader.read(data, limit: 4_000_000), as: UTF8.self)
        let folder = (workspace as NSString).deletingLastPathComponent
        var projects: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: "location = \"") ?? rest.range(of: "location=\"") {
            rest = rest[range.upperBound...]
            guard let close = rest.firstIndex(of: "\"") else { break }
            let location = String(rest[..<close])
            let parts = location.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[1].hasSuffix(".xcodeproj"),
                !parts[1].hasSuffix("Pods.xcodeproj")
            else { continue }
            let path = parts[0] == "absolute" ? parts[1] : FilePaths.join(folder, parts[1])
            var ignored: [String] = []
            if let found = CaseInsensitivePath.resolve(path) {
                projects.append(followLink(found.path, notes: &ignored))
            }
        }
        return Array(Set(projects)).sorted()
    }

    /// Every `.xcodeproj` up to `depth` folders below `folder` (an example or demo project beside a
    /// framework's), sorted, bounded.
    package static func allProjects(below folder: String, depth: Int = 3) -> [String] {
        guard depth > 0, let entries = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return [] }
        var found: [String] = []
        for entry in entries.sorted()
        where !skipped.contains(entry) && !entry.hasPrefix(".") && found.count < 32 {
            let path = folder + "/" + entry
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else { continue }
            if entry.hasSuffix(".xcodeproj") {
                if !entry.hasSuffix("Pods.xcodeproj") { found.append(path) }
            } else if !entry.hasSuffix(".xcworkspace") {
                found += allProjects(below: path, depth: depth - 1)
            }
        }
        return found
    }

    private static func projectsBelow(_ folder: String, depth: Int) -> [String] {
        guard depth > 0, let entries = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return [] }
        var found: [String] = []
        for entry in entries.sorted() where !skipped.contains(entry) && !entry.hasPrefix(".") {
            let path = folder + "/" + entry
            if entry.hasSuffix(".xcodeproj"), !entry.hasSuffix("Pods.xcodeproj") {
                found.append(path)
                continue
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                isDirectory.boolValue, !entry.hasSuffix(".xcworkspace")
            {
                found += projectsBelow(path, depth: depth - 1)
            }
        }
        // Leftover bundles without a project file compete with no project; a project's own folder
        // wins over deeper ones (sample or dependency projects).
        if found.contains(where: isWhole) { found = found.filter(isWhole) }
        let shallowest = found.map { $0.split(separator: "/").count }.min()
        return found.filter { $0.split(separator: "/").count == shallowest }
    }

    /// A `.xcodeproj` Xcode can open: it holds its `project.pbxproj`.
    static func isWhole(_ bundle: String) -> Bool {
        FileManager.default.fileExists(atPath: bundle + "/project.pbxproj")
    }

    /// `path` as seen from `root`; a file outside it (a development pod at `../../`) with `../`
    /// steps, as long as the two share a folder below `/`.
    package static func relative(_ path: String, to root: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        if path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
        let from = root.split(separator: "/"), to = path.split(separator: "/")
        let shared = zip(from, to).prefix { $0 == $1 }.count
        guard path.hasPrefix("/"), root.hasPrefix("/"), shared > 0, shared < from.count else {
            return path
        }
        return (Array(repeating: "..", count: from.count - shared) + to[shared...].map(String.init))
            .joined(separator: "/")
    }
}
