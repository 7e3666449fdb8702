import Dispatch
import Foundation
import Synchronization
import TribeBoardMigrate

/// Ctrl-C during a migration: says where the run was and how to go on (the typed
/// `MigrationInterruption`, as text on stderr and, with --json, the error document), then ends
/// with status 130 at once. Ending there is safe at any point: the migration is built to survive
/// a kill (the checkpoint is written before each batch is sent, a rerun settles the rest), and a
/// request CloudKit is still answering would otherwise keep the operator waiting.
final class MigrationInterrupt: Sendable {
    private let last = Mutex<MigrationProgress?>(nil)
    private let source = Mutex<SignalSource?>(nil)

    /// The latest progress, for the message.
    func record(_ progress: MigrationProgress) { last.withLock { $0 = progress } }

    /// `report` prints the interruption (it must not return before it is written); the process then
    /// exits 130.
    func install(applying: Bool, report: @escaping @Sendable (MigrationInterruption) -> Void) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [self] in
            report(MigrationInterruption(progress: last.withLock { $0 }, applying: applying))
            _exit(ExitStatus.interrupted.rawValue)
        }
        source.resume()
        self.source.withLock { $0 = SignalSource(source) }
    }

    /// Once the run is over (its report printed or its error reported), Ctrl-C is the default
    /// again.
    func remove() {
        source.withLock { $0?.cancel() }
        signal(SIGINT, SIG_DFL)
    }
}

/// A signal source shared between threads: DispatchSourceSignal is not marked Sendable, but a
/// dispatch source may be cancelled from any thread (Dispatch documents its objects as
/// thread-safe), and that is all this offers.
struct SignalSource: @unchecked Sendable {
    private let source: any DispatchSourceSignal

    init(_ source: any DispatchSourceSignal) { self.source = source }

    func cancel() { source.cancel() }
}
