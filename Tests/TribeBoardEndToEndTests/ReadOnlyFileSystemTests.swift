import Foundation
import Testing
import TribeBoardTestSupport

/// A store on a file system mounted read-only (a backup snapshot): the commands that only read it
/// work, and the ones that write say the file system is read-only, not "chmod 600 it".
@Suite(.enabled(if: ReadOnlyMount.available, "needs root to mount a tmpfs read-only (mount -o remount,ro)"))
struct ReadOnlyFileSystemTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    @Test func readingCommandsWorkOnAReadOnlySnapshotAndWritersNameTheCause() async throws {
        let mount = try ReadOnlyMount()
        defer { mount.remove() }
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Templates/families.csv").standardized.path
        let made = try ProcessRunner.run(tribeboard, ["provision", sample, "--store", "s.sqlite", "--out", "out", "-q"], in: mount.path)
        try #require(made.status == 0, "\(made.stderr)")
        try mount.makeReadOnly()
        let elsewhere = try TemporaryDirectory("rofs-out")

        for arguments in [["audit", "--local-only"], ["resync", "--list"], ["sheets", "--out", elsewhere.file("cards.pdf")], ["doctor"]] {
            let result = try await ProcessRunner.runAsync(tribeboard, arguments + ["--store", "s.sqlite"], in: mount.path)
            #expect(!result.stderr.contains("chmod 600"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("cannot open the store"), "\(arguments): \(result.stderr)")
            if arguments[0] != "doctor" { #expect(result.status == 0, "\(arguments): \(result.stderr)") }
        }
        let provision = try await ProcessRunner.runAsync(tribeboard, ["provision", sample, "--store", "s.sqlite", "--out", elsewhere.file("out"), "-q"],
                                                         in: mount.path)
        #expect(provision.status != 0)
        #expect(provision.stderr.lowercased().contains("read-only file system"), "\(provision.stderr)")
    }
}

/// A tmpfs of this test's own, remounted read-only once the store is in it.
struct ReadOnlyMount {
    let path: String

    static let available: Bool = {
        guard getuid() == 0, let probe = try? ReadOnlyMount() else { return false }
        defer { probe.remove() }
        return (try? probe.makeReadOnly()) != nil
    }()

    init() throws {
        path = NSTemporaryDirectory() + "tb-rofs-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let result = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64m,mode=0700", "tmpfs", path])
        guard result.status == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }

    func makeReadOnly() throws {
        let result = try ProcessRunner.run("/bin/mount", ["-o", "remount,ro", path])
        guard result.status == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }

    func remove() {
        _ = try? ProcessRunner.run("/bin/umount", [path])
        try? FileManager.default.removeItem(atPath: path)
    }
}
