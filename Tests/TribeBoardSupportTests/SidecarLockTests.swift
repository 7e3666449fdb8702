import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardSupport

/// The one sidecar lock every run lock (resync, provision, the store's open lock) is made of.
@Suite struct SidecarLockTests {
    private func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sidecar-\(UUID().uuidString).lock").path
    }

    @Test func aHeldLockNamesItsHoldersPid() throws {
        let file = path()
        defer { unlink(file) }
        guard case .acquired(let lock) = try SidecarLock.attempt(file) else { Issue.record("free lock not taken"); return }
        // flock belongs to an open file description: a second open in this process is another holder.
        guard case .held(let pid) = try SidecarLock.attempt(file) else { Issue.record("held lock taken twice"); return }
        #expect(pid == getpid())
        #expect(SidecarLock.holder(file) == .some(getpid()))
        withExtendedLifetime(lock) {}
    }

    @Test func releasedWhenTheValueGoes() throws {
        let file = path()
        defer { unlink(file) }
        do {
            guard case .acquired = try SidecarLock.attempt(file) else { Issue.record("free lock not taken"); return }
        }
        #expect(SidecarLock.holder(file) == nil)
        guard case .acquired = try SidecarLock.attempt(file) else { Issue.record("released lock not taken"); return }
    }

    @Test func waitingGivesUpAtTheDeadline() throws {
        let file = path()
        defer { unlink(file) }
        do {
            guard case .acquired(let lock) = try SidecarLock.attempt(file) else { Issue.record("free lock not taken"); return }
            let started = Date()
            #expect(try SidecarLock.waiting(file, until: started.addingTimeInterval(0.2)) == nil)
            #expect(Date().timeIntervalSince(started) >= 0.2)
            withExtendedLifetime(lock) {}
        }
        #expect(try SidecarLock.waiting(file, until: Date()) != nil)
    }

    @Test func aLinkPlantedThereIsRefused() throws {
        let file = path()
        defer { unlink(file) }
        #expect(symlink("/etc/passwd", file) == 0)
        #expect(throws: FileSystemError.self) { try SidecarLock.attempt(file) }
        #expect(SidecarLock.holder(file) == nil)
    }
}
