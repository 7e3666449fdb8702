import Foundation

/// Where the pbxproj's file references are on disk (through the group tree), and which Swift
/// files a target compiles: its Sources build phase and its file-system-synchronized groups
/// (objectVersion 77) less their membership exceptions.
struct FilePaths {
    let objects: PBXObjects
    private let parents: [String: String]
    /// Local Swift packages added to the project as folders, by folder name.
    private let localPackages: [String: String]
    /// Every file-system-synchronized folder (found once: each target asks which add files to it).
    private let synchronizedGroups: [String]

    init(objects: PBXObjects) {
        self.objects = objects
        var parents: [String: String] = [:]
        for (id, object) in objects.byID {
            for child in object["children"]?.array ?? [] {
                if let childID = child.string { parents[childID] = id }
            }
        }
        self.parents = parents
        var packages: [String: String] = [:]
        for (id, object) in objects.byID where object["isa"]?.string == "PBXFileReference"
            && ["wrapper", "folder"].contains(object["lastKnownFileType"]?.string ?? "") {
            if let path = Self(objects: objects, parents: parents).path(of: id),
               FileManager.default.fileExists(atPath: path + "/Package.swift") {
                packages[(path as NSString).lastPathComponent] = path
            }
        }
        localPackages = packages
        synchronizedGroups = objects.byID.filter {
            $0.value["isa"]?.string == "PBXFileSystemSynchronizedRootGroup"
        }.map(\.key).sorted()
    }

    private init(objects: PBXObjects, parents: [String: String]) {
        self.objects = objects
        self.parents = parents
        localPackages = [:]
        synchronizedGroups = []
    }

    /// Swift files of the local packages whose products the target links: all of a package's
    /// `Sources` (which of its targets make up the product is not read). A remote package is read
    /// when its sources are in the tree (a folder named after the repository, holding a
    /// Package.swift).
    func localPackageSources(of target: OpenStepValue) -> [String] {
        var folders = Set<String>()
        for dependencyID in target["packageProductDependencies"]?.array?.compactMap(\.string) ?? []
        {
            guard let dependency = objects.byID[dependencyID],
                let product = dependency["productName"]?.string
            else { continue }
            if let packageID = dependency["package"]?.string {
                guard let package = objects.byID[packageID] else { continue }
                if package["isa"]?.string == "XCLocalSwiftPackageReference",
                    let relative = package["relativePath"]?.string
                {
                    folders.insert(Self.join(objects.folder, relative))
                } else if let url = package["repositoryURL"]?.string,
                    let folder = packageFolder(named: Self.repositoryName(url))
                {
                    // A remote package whose sources are in the tree (vendored, a submodule): read
                    // them.
                    folders.insert(folder)
                }
            } else if let folder = localPackages[product] ?? packageFolder(named: product)
                ?? (localPackages.count == 1 ? localPackages.values.first : nil)
                ?? onlyLocalPackageReference()
            {
                folders.insert(folder)
            }
        }
        return folders.sorted().flatMap { SwiftContainerLiterals.codeFiles(below: $0 + "/Sources") }
    }

    /// `https://github.com/owner/Name.git` -> `Name`.
    static func repositoryName(_ url: String) -> String {
        let last = url.split(separator: "/").last.map(String.init) ?? url
        return last.hasSuffix(".git") ? String(last.dropLast(4)) : last
    }

    /// A product dependency Xcode wrote without its `package` (a package added by path): the
    /// project's one `XCLocalSwiftPackageReference`, when it has exactly one.
    private func onlyLocalPackageReference() -> String? {
        let references = objects.byID.values.filter {
            $0["isa"]?.string == "XCLocalSwiftPackageReference"
        }
        guard references.count == 1, let relative = references.first?["relativePath"]?.string else {
            return nil
        }
        return URL(fileURLWithPath: Self.join(objects.folder, relative)).standardizedFileURL.path
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

    /// `NAME/` or `*/NAME/` below the project folder holding a Package.swift (a workspace's
    /// packages).
    private func packageFolder(named name: String) -> String? {
        let top =
            (try? FileManager.default.contentsOfDirectory(atPath: objects.folder))?.sorted() ?? []
        let candidates =
            [Self.join(objects.folder, name)]
            + top.map { Self.join(Self.join(objects.folder, $0), name) }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/Package.swift") }
    }

    /// nil when the project does not say (no Sources phase and no synchronized group).
    func swiftSources(of target: OpenStepValue, id targetID: String) -> [String]? {
        var said = false
        var files: [String] = []
        for phaseID in target["buildPhases"]?.array?.compactMap(\.string) ?? [] {
            guard let phase = objects.byID[phaseID], phase["isa"]?.string == "PBXSourcesBuildPhase"
            else { continue }
            said = true
            for buildFileID in phase["files"]?.array?.compactMap(\.string) ?? [] {
                guard let reference = objects.byID[buildFileID]?["fileRef"]?.string,
                    let path = path(of: reference),
                    ContainerPatterns.codeExtensions.contains((path as NSString).pathExtension)
                else { continue }
                files.append(path)
                // An Objective-C file's constants are often in its header, which no phase compiles.
                let header = (path as NSString).deletingPathExtension + ".h"
                if !path.hasSuffix(".swift"), FileManager.default.fileExists(atPath: header) {
                    files.append(header)
                }
            }
        }
        let owned = target["fileSystemSynchronizedGroups"]?.array?.compactMap(\.string) ?? []
        let added = addedBySynchronizedGroups(target: targetID, owned: Set(owned))
        if !added.isEmpty { said = true }
        files += added
        for groupID in owned {
            guard let root = path(of: groupID) else { continue }
            said = true
            let excluded = exceptions(group: groupID, target: targetID)
            files += SwiftContainerLiterals.codeFiles(below: root).filter { path in
                let relative =
                    path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
                return !excluded.contains { relative == $0 || relative.hasPrefix($0 + "/") }
            }
        }
        return said ? Array(Set(files)).sorted() : nil
    }

    /// Files another target's synchronized folder adds to this one: an exception set for this
    /// target on a folder it does not own lists files added to it, not removed (objectVersion 77).
    private func addedBySynchronizedGroups(target: String, owned: Set<String>) -> [String] {
        var files: [String] = []
        for groupID in synchronizedGroups where !owned.contains(groupID) {
            let relatives = exceptions(group: groupID, target: target)
            guard !relatives.isEmpty, let root = path(of: groupID) else { continue }
            for relative in relatives {
                let path = Self.join(root, relative)
                files +=
                    ContainerPatterns.codeExtensions.contains((path as NSString).pathExtension)
                    ? [path]
                    : SwiftContainerLiterals.codeFiles(below: path)
            }
        }
        return files
    }

    /// Paths (relative to the group) that `membershipExceptions` take out of the target
    /// (or, on a folder the target does not own, add to it).
    private func exceptions(group: String, target: String) -> [String] {
        return (objects.byID[group]?["exceptions"]?.array ?? []).compactMap {
            $0.string.flatMap { objects.byID[$0] }
        }
        .filter { $0["target"]?.string == target }
        .flatMap { $0["membershipExceptions"]?.array?.compactMap(\.string) ?? [] }
    }

    static func join(_ base: String, _ path: String) -> String {
        if path.isEmpty { return base }
        return path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path)
    }
}
