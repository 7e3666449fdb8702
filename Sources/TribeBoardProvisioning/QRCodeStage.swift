import Dispatch
import Foundation
import TribeBoardCSV
import Synchronization
import TribeBoardDomain
import TribeBoardQR
import TribeBoardSupport

/// Renders QR PNGs on every core while the caller goes on reading and writing the store, and
/// writes them from one serial queue: file creation in one directory is serialized by the kernel
/// anyway, and two writers only spun on the directory lock. Batches are handed back in submission
/// order, and at most `maxInFlight` are outstanding, which bounds memory however long the input is.
final class QRCodeStage: Sendable {
    private let renderer: QRCodePNGRenderer
    private let outputDirectory: String
    private let renderQueue = DispatchQueue(label: "tribeboard.qr.render", attributes: .concurrent)
    private let writeQueue = DispatchQueue(label: "tribeboard.qr.write")
    private let maxInFlight: Int
    private let inFlight = Mutex<[Ticket]>([])

    init(renderer: QRCodePNGRenderer, outputDirectory: String, maxInFlight: Int = 8) {
        self.renderer = renderer
        self.outputDirectory = outputDirectory
        self.maxInFlight = maxInFlight
    }

    static let chunkSize = 16

    struct Job: Sendable {
        let index: Int
        let familyID: FamilyID
        let code: String
        let path: String
        /// A PNG may be there: keep it if it holds these very bytes, replace it otherwise.
        let checkExisting: Bool
    }

    final class Ticket: Sendable {
        let group = DispatchGroup()
        let results: Mutex<[ProvisionRowResult]>
        let written = Atomic<Int>(0)
        let failedWrites = Atomic<Int>(0)

        init(_ results: [ProvisionRowResult]) { self.results = Mutex(results) }

        func recordFailure(at index: Int, familyID: FamilyID, _ error: any Error) {
            failedWrites.add(1, ordering: .relaxed)
            results.withLock { results in
                results[index].status = .failed
                results[index].error =
                    "family \(familyID) was created but its QR code could not be written "
                    + "(\(error.localizedDescription)); run the same command again to write it"
            }
        }
    }

    /// Queues the rows' PNGs. Returns the batches that completed, oldest first, once more than
    /// `maxInFlight` are outstanding (waiting for the oldest if it is still running).
    func submit(_ rows: [ProvisionRowResult]) -> [Ticket] {
        let ticket = Ticket(rows)
        let jobs: [Job] = rows.enumerated().compactMap { index, row in
            guard row.needsQRCode, let familyID = row.familyId, let code = row.code else { return nil }
            return Job(index: index, familyID: familyID, code: code,
                       path: "\(outputDirectory)/\(QRCodeFiles.relativePath(for: familyID))", checkExisting: row.checkExistingQRCode)
        }
        // A work item per chunk rather than per family: two dispatches per family cost more than
        // the queue bookkeeping they buy.
        for chunk in stride(from: 0, to: jobs.count, by: Self.chunkSize).map({
            Array(jobs[$0..<min($0 + Self.chunkSize, jobs.count)])
        }) {
            let renderer = renderer
            let writeQueue = writeQueue
            renderQueue.async(group: ticket.group) {
                Self.yieldToStoreWriter()
                var rendered: [(Job, [UInt8])] = []
                rendered.reserveCapacity(chunk.count)
                for job in chunk {
                    do {
                        rendered.append((job, try renderer.png(for: job.code)))
                    } catch {
                        ticket.recordFailure(at: job.index, familyID: job.familyID, error)
                    }
                }
                let pngs = rendered
                writeQueue.async(group: ticket.group) {
                    Self.yieldToStoreWriter()
                    for (job, png) in pngs {
                        do {
                            // Rendering is deterministic: the same code gives the same bytes, so
                            // an existing PNG that differs encodes another code (or was damaged).
                            if job.checkExisting, let current = QRCodeFiles.contents(of: job.path) {
                                if current == png { continue }
                                try AtomicFile.write(
                                    png, to: job.path, permissions: 0o600, whenPresent: .replace)
                            } else {
                                try AtomicFile.write(
                                    png, to: job.path, permissions: 0o600,
                                    whenPresent: .keepExisting)
                            }
                            ticket.written.add(1, ordering: .relaxed)
                        } catch {
                            ticket.recordFailure(at: job.index, familyID: job.familyID, error)
                        }
                    }
                }
            }
        }
        let overflow = inFlight.withLock { tickets -> [Ticket] in
            tickets.append(ticket)
            guard tickets.count > maxInFlight else { return [] }
            return [tickets.removeFirst()]
        }
        overflow.forEach { $0.group.wait() }
        return overflow
    }

    /// The store writer is the pipeline's critical path and QR work can catch up once it is done,
    /// so QR threads run at a lower priority (on Linux, setpriority with 0 applies to the calling
    /// thread only). Idempotent: only our stages use these worker threads.
    static func yieldToStoreWriter() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
    }

    /// Waits for every outstanding batch; returns them oldest first.
    func drain() -> [Ticket] {
        let remaining = inFlight.withLock { tickets -> [Ticket] in
            defer { tickets.removeAll() }
            return tickets
        }
        remaining.forEach { $0.group.wait() }
        return remaining
    }
}
