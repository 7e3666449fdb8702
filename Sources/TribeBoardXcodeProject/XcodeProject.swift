import Foundation

package enum XcodeProjectError: Error, Equatable, LocalizedError {
    case notFound(path: String)
    case noProjectInFolder(path: String)
    /// An XcodeGen (`project.yml`) or Tuist (`Project.swift`) folder whose project is not
    /// generated.
    case notGenerated(path: String, manifest: String, command: String)
    /// The same with a `.xcodeproj` of which only some files are committed (no project.pbxproj).
    case partlyGenerated(path: String, bundle: String, manifest: String, command: String)
    case severalProjects(path: String, projects: [String])
    /// A file left mid-merge: `<<<<<<<` from `line` on.
    case conflicted(path: String, line: Int)
    case unreadable(path: String, reason: String)
    case malformed(path: String, line: Int, reason: String)

    package var errorDescription: String? {
        switch self {
        case .notFound(let path): return "\(path) does not exist"
        case .noProjectInFolder(let path):
            return "\(path) holds no .xcodeproj or .xcworkspace (nor one in the folders below)"
        case .notGenerated(let path, let manifest, let command):
            return "\(path) holds \(manifest) but no generated .xcodeproj: run `\(command)` there first"
        case .partlyGenerated(let path, let bundle, let manifest, let command):
            return "\(path) holds \(manifest), and \(bundle) holds no project.pbxproj (only part of the "
                + "generated project is committed): run `\(command)` there first"
        case .conflicted(let path, let line):
            return "\(path) holds merge-conflict markers from line \(line) on: Xcode cannot open it either"
        case .severalProjects(let path, let projects):
            return "\(path) holds several projects: \(projects.joined(separator: ", "))"
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .malformed(let path, let line, let reason):
            return "\(path):\(line): not a readable project file: \(reason)"
        }
    }
}

/// One `.xcodeproj` as doctor reads it: where it is, and its targets with their settings.
package struct XcodeProject: Sendable {
    /// The folder holding the `.xcodeproj`: `SRCROOT`, and build setting paths are relative to it.
    package let folder: String
    package let pbxprojPath: String
    package let name: String
    package let targets: [XcodeTarget]
    /// Projects named in `projectReferences` (sub-projects whose frameworks the targets may link).
    package var subprojects: [String] = []

    /// Reads `bundle` (an `.xcodeproj`); `display` turns absolute paths into the ones findings
    /// show.
    package static func read(bundle: String, display: @escaping (String) -> String)
        throws(XcodeProjectError) -> XcodeProject
    {
        let pbxproj = bundle + "/project.pbxproj"
        let text = String(
            decoding: try ProjectFileReader.read(pbxproj, limit: maxFileSize), as: UTF8.self)
        if let line = conflictMarkerLine(text) { throw .conflicted(path: pbxproj, line: line) }
        let root: OpenStepValue
        do {
            root = try OpenStepPlist.parse(text)
        } catch {
            throw .malformed(path: pbxproj, line: error.line, reason: error.reason)
        }
        guard let entries = root["objects"]?.entries else {
            throw .malformed(path: pbxproj, line: root.line, reason: "no objects dictionary")
        }
        let name = ((bundle as NSString).lastPathComponent as NSString).deletingPathExtension
        let objects = PBXObjects(
            entries, folder: (bundle as NSString).deletingLastPathComponent, display: display)
        let paths = FilePaths(objects: objects)
        return XcodeProject(
            folder: objects.folder, pbxprojPath: pbxproj, name: name,
            targets: objects.targets(projectName: name, pbxprojPath: pbxproj, paths: paths),
            subprojects: objects.subprojects(paths: paths))
    }

    /// Large projects run to a few MB; past this it is not a project file.
    static let maxFileSize = 64_000_000

    /// The first line starting a merge conflict (`<<<<<<< `, as git writes it), nil when there is
    /// none.
    static func conflictMarkerLine(_ text: String) -> Int? {
        guard text.contains("<<<<<<<") else { return nil }
        var number = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            if line.hasPrefix("<<<<<<<") { return number }
        }
        return nil
    }

    /// A path from a build setting (already expanded), relative to the project folder as in Xcode.
    package func path(fromSetting value: String) -> String {
        URL(fileURLWithPath: FilePaths.join(folder, value)).standardizedFileURL.path
    }
}
