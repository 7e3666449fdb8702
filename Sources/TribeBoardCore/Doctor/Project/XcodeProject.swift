import Foundation

public enum XcodeProjectError: Error, Equatable, LocalizedError {
    case notFound(path: String)
    case noProjectInFolder(path: String)
    case unreadable(path: String, reason: String)
    case malformed(path: String, line: Int, reason: String)

    public var errorDescription: String? {
        switch self {
        case .notFound(let path): return "\(path) does not exist"
        case .noProjectInFolder(let path): return "\(path) holds no .xcodeproj"
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .malformed(let path, let line, let reason): return "\(path):\(line): not a readable project file: \(reason)"
        }
    }
}

/// The parts of an Xcode project doctor reads: where it is, and the app target's configurations.
public struct XcodeProject: Sendable {
    /// The folder holding the `.xcodeproj`: build setting paths are relative to it.
    public let folder: String
    public let pbxprojPath: String
    public let configurations: [AppBuildConfiguration]

    /// `path` is the folder holding an `.xcodeproj` or the `.xcodeproj` itself.
    public static func load(_ path: String) throws(XcodeProjectError) -> XcodeProject {
        // Absolute, so that locations can be shown relative to the project folder.
        let bundle = URL(fileURLWithPath: try locate(path)).standardizedFileURL.path
        let pbxproj = bundle + "/project.pbxproj"
        guard let data = FileManager.default.contents(atPath: pbxproj) else {
            throw FileManager.default.fileExists(atPath: pbxproj)
                ? .unreadable(path: pbxproj, reason: "permission denied") : .notFound(path: pbxproj)
        }
        let root: OpenStepValue
        do {
            root = try OpenStepPlist.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw .malformed(path: pbxproj, line: error.line, reason: error.reason)
        }
        guard let objects = root["objects"]?.entries else {
            throw .malformed(path: pbxproj, line: root.line, reason: "no objects dictionary")
        }
        let folder = URL(fileURLWithPath: bundle).deletingLastPathComponent().path
        return XcodeProject(folder: folder, pbxprojPath: pbxproj,
                            configurations: PBXObjects(objects).appConfigurations())
    }

    /// A path from a build setting, relative to the project folder as in Xcode.
    public func path(fromSetting value: String) -> String {
        let path = value.hasPrefix("/") ? value : folder + "/" + value
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    static func locate(_ path: String) throws(XcodeProjectError) -> String {
        var isDirectory: ObjCBool = false
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) else { throw .notFound(path: path) }
        if trimmed.hasSuffix(".xcodeproj") { return trimmed }
        guard isDirectory.boolValue else { throw .noProjectInFolder(path: path) }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: trimmed)
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        // Several projects in one folder: the first by name, as `xcodebuild` refuses to guess.
        guard let project = entries.filter({ $0.hasSuffix(".xcodeproj") }).sorted().first else {
            throw .noProjectInFolder(path: path)
        }
        return trimmed + "/" + project
    }
}
