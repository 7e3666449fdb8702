import Foundation

/// Where the pbxproj's file references are on disk (through the group tree), and which Swift
/// files a target compiles: its Sources build phase and its file-system-synchronized groups
/// (objectVersion 77) less their membership exceptions.
struct FilePaths {
    let objects: PBXObjects
    private let parents: [String: String]

    init(objects: PBXObjects) {
        self.objects = objects
        var parents: [String: String] = [:]
        for (id, object) in objects.byID {
            for child in object["children"]?.array ?? [] {
                if let childID = child.string { parents[childID] = id }
            }
        }
        self.parents = parents
    }

    /// The absolute path of a file reference or group; nil for paths in the SDK or build products.
    func path(of id: String, depth: Int = 0) -> String? {
        guard depth < 64, let object = objects.byID[id] else { return nil }
        let own = object["path"]?.string ?? ""
        switch object["sourceTree"]?.string ?? "<group>" {
        case "<absolute>": return own
        case "SOURCE_ROOT": return Self.join(objects.folder, own)
        case "<group>":
            guard let parent = parents[id] else { return Self.join(objects.folder, own) }
            return path(of: parent, depth: depth + 1).map { Self.join($0, own) }
        default: return nil
        }
    }

    /// nil when the project does not say (no Sources phase and no synchronized group).
    func swiftSources(of target: OpenStepValue, id targetID: String) -> [String]? {
        var said = false
        var files: [String] = []
        for phaseID in target["buildPhases"]?.array?.compactMap(\.string) ?? [] {
            guard let phase = objects.byID[phaseID], phase["isa"]?.string == "PBXSourcesBuildPhase" else { continue }
            said = true
            for buildFileID in phase["files"]?.array?.compactMap(\.string) ?? [] {
                guard let reference = objects.byID[buildFileID]?["fileRef"]?.string, let path = path(of: reference),
                      path.hasSuffix(".swift") else { continue }
                files.append(path)
            }
        }
        for groupID in target["fileSystemSynchronizedGroups"]?.array?.compactMap(\.string) ?? [] {
            guard let root = path(of: groupID) else { continue }
            said = true
            let excluded = exceptions(group: groupID, target: targetID)
            files += SwiftContainerLiterals.swiftFiles(below: root).filter { path in
                let relative = path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
                return !excluded.contains { relative == $0 || relative.hasPrefix($0 + "/") }
            }
        }
        return said ? Array(Set(files)).sorted() : nil
    }

    /// Paths (relative to the group) that `membershipExceptions` take out of the target.
    private func exceptions(group: String, target: String) -> [String] {
        return (objects.byID[group]?["exceptions"]?.array ?? []).compactMap { $0.string.flatMap { objects.byID[$0] } }
            .filter { $0["target"]?.string == target }
            .flatMap { $0["membershipExceptions"]?.array?.compactMap(\.string) ?? [] }
    }

    static func join(_ base: String, _ path: String) -> String {
        if path.isEmpty { return base }
        return path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path)
    }
}
