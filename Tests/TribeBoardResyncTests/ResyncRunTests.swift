import Foundation
import Synchronization
import Testing
import TribeBoardCloudFixtures
import TribeBoardSupport
import TribeBoardTestSupport
@testable import TribeBoardResync
@testable import TribeBoardStore

/// One resync run as the command starts it: what it refuses before uploading anything, and the
/// progress it reports as it goes.
@Suite("Resync run")
struct ResyncRunTests {
    /// A client of a port nothing listens on: a run that gets as far as CloudKit fails loudly.
    static let nowhere = "http://127.0.0.1:9"

    @Test("a run while another holds the store's lock uploads nothing and says who holds it")
    func anotherRunHoldingTheLockIsRefused() async throws {
        let (workspace, _) = try ResyncFixtures.threeFamilies()
        let held = try SyncLock(storePath: workspace.storePath)
        let run = ResyncRun(storePath: workspace.storePath, client: ResyncFixtures.client(Self.nowhere),
                            logger: TestLogger.quiet)
        await #expect(throws: ResyncRunError.lock(.held(byPID: getpid()))) {
            try await PipelineThread.run { try await run.run() }
        }
        withExtendedLifetime(held) {}
        #expect(try workspace.inspector().count("SELECT COUNT(*) FROM families WHERE needs_sync = 1") == 3)
    }

    @Test("a file that is not a store is refused before a lock file is put beside it")
    func aFileThatIsNotAStoreGetsNoLockFile() async throws {
        let folder = try TemporaryDirectory("resync-run")
        let path = folder.file("notes.sqlite")
        try Data("not a database, someone's notes\n".utf8).write(to: URL(fileURLWithPath: path))
        let run = ResyncRun(storePath: path, client: ResyncFixtures.client(Self.nowhere),
                            logger: TestLogger.quiet)
        await #expect {
            try await PipelineThread.run { try await run.run() }
        } throws: { error in
            guard case .store(.notAStore)? = error as? ResyncRunError else { return false }
            return true
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".resync-lock"))
    }

    @Test("progress counts every record once, up to what was pending, in one terms for every command")
    func progressEndsAtWhatWasPending() async throws {
        let (workspace, _) = try ResyncFixtures.threeFamilies()
        let seen = Mutex<[WorkProgress]>([])
        let report = try await ResyncFixtures.resync(workspace.storePath, ScriptedCloudKitServer.Script()) { progress in
            seen.withLock { $0.append(progress) }
        }
        let updates = seen.withLock { $0 }
        let last = try #require(updates.last)
        #expect(report.synced == report.pendingBefore.total && report.synced > 0)
        #expect(last.processed == report.pendingBefore.total && last.total == report.pendingBefore.total)
        #expect(last.failed == 0 && last.phase == nil)
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0.processed <= $1.processed && $0.elapsed <= $1.elapsed })
    }
}
