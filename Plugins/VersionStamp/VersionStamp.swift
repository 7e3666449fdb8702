import Foundation
import PackagePlugin

/// Stamps `VERSION` and the git commit into the build, so `--version` says which source a binary
/// came from without anyone editing a file per commit. The stamp is a build command whose inputs are
/// `VERSION` and the git files that move when the commit does (HEAD, the branch's ref, packed-refs),
/// so it is redone after a commit or checkout and skipped otherwise.
@main
struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildStamp.swift")
        let inputs = [package.appending(path: "VERSION"), package.appending(path: "scripts/version-stamp.sh")]
            + GitFiles(package: package).movingWithCommit
        return [.buildCommand(
            displayName: "Stamping the version into \(target.name)",
            executable: URL(filePath: "/bin/sh"),
            arguments: [package.appending(path: "scripts/version-stamp.sh").path(percentEncoded: false),
                        package.path(percentEncoded: false), output.path(percentEncoded: false)],
            inputFiles: inputs.filter { FileManager.default.fileExists(atPath: $0.path(percentEncoded: false)) },
            outputFiles: [output])]
    }
}

/// The files of a checkout that change when its commit does. `.git` is a folder in a clone and a
/// file (`gitdir: …`) in a worktree, whose refs live in the common folder named by `commondir`.
struct GitFiles {
    let package: URL

    var movingWithCommit: [URL] {
        guard let gitDir = gitDirectory else { return [] }
        let common = commonDirectory(of: gitDir)
        var files = [gitDir.appending(path: "HEAD"), common.appending(path: "packed-refs")]
        if let head = read(gitDir.appending(path: "HEAD")), head.hasPrefix("ref: ") {
            files.append(common.appending(path: String(head.dropFirst(5))))
        }
        return files
    }

    private var gitDirectory: URL? {
        let dotGit = package.appending(path: ".git")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path(percentEncoded: false), isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { return dotGit }
        guard let line = read(dotGit), line.hasPrefix("gitdir: ") else { return nil }
        return URL(filePath: String(line.dropFirst(8)), relativeTo: package).standardizedFileURL
    }

    private func commonDirectory(of gitDir: URL) -> URL {
        guard let relative = read(gitDir.appending(path: "commondir")) else { return gitDir }
        return URL(filePath: relative, relativeTo: gitDir.appending(path: "")).standardizedFileURL
    }

    private func read(_ url: URL) -> String? {
        (try? String(contentsOf: url, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
