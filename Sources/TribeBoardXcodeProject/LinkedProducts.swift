import Foundation

/// What a target links or embeds that holds code of its own: frameworks and libraries built by
/// another target (of this project, of a sub-project in `projectReferences`, or of a sibling
/// project in the workspace, all met by product file name), and the targets it depends on by name.
extension PBXObjects {
    /// `BeaconCrawl.framework`, `libSync.a`: the file name of the product a target builds.
    func productFile(of target: OpenStepValue) -> String? {
        if let reference = target["productReference"]?.string.flatMap({ byID[$0] }),
           let path = reference["path"]?.string ?? reference["name"]?.string {
            return (path as NSString).lastPathComponent
        }
        return nil
    }

    /// Product file names from the target's Frameworks and Copy Files (embed) phases, and
    /// `target:NAME` for each target it depends on.
    func linkedProducts(of target: OpenStepValue) -> [String] {
        var linked: [String] = []
        for phaseID in target["buildPhases"]?.array?.compactMap(\.string) ?? [] {
            guard let phase = byID[phaseID],
                ["PBXFrameworksBuildPhase", "PBXCopyFilesBuildPhase"].contains(
                    phase["isa"]?.string ?? "")
            else { continue }
            for buildFileID in phase["files"]?.array?.compactMap(\.string) ?? [] {
                guard let reference = byID[buildFileID]?["fileRef"]?.string.flatMap({ byID[$0] }),
                    let path = reference["path"]?.string ?? reference["name"]?.string
                else { continue }
                let name = (path as NSString).lastPathComponent
                if name.hasSuffix(".framework") || name.hasSuffix(".a") || name.hasSuffix(".dylib")
                {
                    linked.append(name)
                }
            }
        }
        for dependencyID in target["dependencies"]?.array?.compactMap(\.string) ?? [] {
            guard let dependency = byID[dependencyID] else { continue }
            if let name = dependency["target"]?.string.flatMap({ byID[$0] })?["name"]?.string {
                linked.append("target:" + name)
            } else if let name = dependency["targetProxy"]?.string.flatMap({ byID[$0] })?[
                "remoteInfo"]?.string
            {
                linked.append("target:" + name)
            }
        }
        return Array(Set(linked)).sorted()
    }

    /// The `.xcodeproj` bundles the project names in `projectReferences` (absolute paths).
    func subprojects(paths: FilePaths) -> [String] {
        (project()?["projectReferences"]?.array ?? []).compactMap { entry in
            entry["ProjectRef"]?.string.flatMap { paths.path(of: $0) }
        }
    }
}

/// The code a target gets from frameworks and libraries other targets build, across every project
/// read: matched by product file name or target name, followed through their own links.
package struct LinkedCode: Sendable {
    private var byProduct: [String: (files: [String], linked: [String])] = [:]

    package init(projects: [XcodeProject]) {
        for target in projects.flatMap(\.targets) where target.providesCode {
            let entry = (
                files: (target.sourceFiles ?? []) + target.packageSourceFiles,
                linked: target.linkedProducts
            )
            byProduct["target:" + target.name] = entry
            if let product = target.productFile { byProduct[product] = entry }
        }
    }

    /// Swift files reached from `target`'s links (not its own), each once.
    package func files(for target: XcodeTarget) -> [String] {
        var seen = Set<String>(), files: [String] = []
        var queue = target.linkedProducts
        while let next = queue.popLast(), seen.count < 512 {
            guard seen.insert(next).inserted, let entry = byProduct[next] else { continue }
            files += entry.files
            queue += entry.linked
        }
        let own = Set(target.sourceFiles ?? [])
        return Array(Set(files).subtracting(own)).sorted()
    }
}
