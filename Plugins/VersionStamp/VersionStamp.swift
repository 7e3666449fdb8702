import Foundation
import PackagePlugin

/// Stamps `VERSION` and the git commit into the build, so `--version` says which source a binary
/// came from without anyone editing a file per commit. A prebuild command runs on every build; the
/// script rewrites its output only when the stamp changed, so an unchanged tree recompiles nothing.
@main
struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "stamp")
        let script = context.package.directoryURL.appending(path: "scripts/version-stamp.sh")
        return [.prebuildCommand(
            displayName: "Stamping the version into \(target.name)",
            executable: URL(filePath: "/bin/sh"),
            arguments: [script.path(percentEncoded: false), context.package.directoryURL.path(percentEncoded: false),
                        output.path(percentEncoded: false)],
            outputFilesDirectory: output)]
    }
}
