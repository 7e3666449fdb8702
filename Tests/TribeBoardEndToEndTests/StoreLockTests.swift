import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// The store's two sidecar locks, seen from outside: `STORE.open-lock` serializes opening and
/// migrating a store across processes (no retries with sleeps), and `STORE.provision-lock` tells
/// a provision run that another one is writing, for as long as that run lasts.
@Suite(.serialized) struct StoreLockTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    /// Polls until another process holds `path`'s flock, or no longer does (flock -n fails while
    /// it is held).
    func waitUntil(held: Bool, _ path: String) throws -> Bool {
        for _ in 0..<2_000 {
            if try ProcessRunner.run("/usr/bin/flock", ["-n", path, "true"]).status == (held ? 1 : 0) { return true }
            usleep(5_000)
        }
        return false
    }

    /// Ends flock(1) and the command it runs (by their process ids).
    func stop(_ holder: RunningProcess) throws {
        _ = try ProcessRunner.run("/usr/bin/pkill", ["-KILL", "-P", "\(holder.pid)"])
        holder.killHard()
    }

    @Test func aHeldOpenLockKeepsAnotherProcessFromMigratingTheStore() throws {
        let directory = try TemporaryDirectory("open-lock")
        try directory.write("in.csv", CSVFixtures.families(count: 3))
        // -o: the lock stays with flock itself, so killing it releases the lock.
        let holder = try ProcessRunner.start("/usr/bin/flock", ["-o", "s.sqlite.open-lock", "sleep", "60"], in: directory.path)
        defer { try? stop(holder) }
        try #require(try waitUntil(held: true, directory.file("s.sqlite.open-lock")))

        let blocked = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"],
                                            in: directory.path, environment: ["TRIBEBOARD_BUSY_TIMEOUT": "1"])
        #expect(blocked.status == 74, "\(blocked.stderr)")
        #expect(blocked.stderr.contains("is busy"), "\(blocked.stderr)")
        let tables = try ProcessRunner.run("/usr/bin/sqlite3", [directory.file("s.sqlite"), "SELECT COUNT(*) FROM sqlite_master"])
        #expect(tables.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "nothing was migrated while the lock was held")

        try stop(holder)
        try #require(try waitUntil(held: false, directory.file("s.sqlite.open-lock")))
        let after = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try StoreInspector(path: directory.file("s.sqlite")).count("SELECT COUNT(*) FROM families") == 3)
    }

    /// The marker is held to the end of the run: a second run started while the first is still
    /// writing (well past its first batches) is told so.
    @Test func aRunStartedWhileAnotherIsWritingIsToldSo() throws {
        let directory = try TemporaryDirectory("provision-lock")
        try directory.write("big.csv", CSVFixtures.families(count: 20_000))
        try directory.write("small.csv", CSVFixtures.families(count: 2, idPrefix: "S"))
        let first = try ProcessRunner.start(tribeboard, ["provision", "big.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        defer { first.killHard() }
        var committed = 0
        for _ in 0..<6_000 where committed < 1_000 && first.isRunning {
            committed = (try? StoreInspector(path: directory.file("s.sqlite")).count("SELECT COUNT(*) FROM families")) ?? 0
            usleep(5_000)
        }
        try #require(committed >= 1_000 && first.isRunning, "the first run must be mid-run (\(committed) families)")

        let second = try ProcessRunner.run(tribeboard, ["provision", "small.csv", "--store", "s.sqlite", "--out", "out2", "--json"],
                                           in: directory.path)
        #expect(second.status == 0, "\(second.stderr)")
        let report = try second.report(ProvisionReportMirror.self)
        #expect(report.otherRunDetected == true, "\(second.stdout.prefix(1500))")
    }
}
