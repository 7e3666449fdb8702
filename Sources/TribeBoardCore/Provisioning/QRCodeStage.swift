import Dispatch
import Foundation
import Synchronization

/// Renders and writes QR PNGs on every core while the caller goes on reading and writing the
/// store. Batches are handed back in submission order, and at most `maxInFlight` are outstanding,
/// which bounds memory however long the input is.
final class QRCodeStage: Sendable {
    private let renderer: QRCodePNGRenderer
    private let outputDirectory: String
    private let queue = DispatchQueue(label: "tribeboard.qr", attributes: .concurrent)
    private let maxInFlight: Int
    private let inFlight = Mutex<[Ticket]>([])

    init(renderer: QRCodePNGRenderer, outputDirectory: String, maxInFlight: Int = 4) {
        self.renderer = renderer
        self.outputDirectory = outputDirectory
        self.maxInFlight = maxInFlight
    }

    final class Ticket: Sendable {
        let group = DispatchGroup()
        let results: Mutex<[ProvisionRowResult]>
        let written = Atomic<Int>(0)
        let failedWrites = Atomic<Int>(0)

        init(_ results: [ProvisionRowResult]) { self.results = Mutex(results) }
    }

    /// Queues the rows' PNGs. Returns the batches that completed, oldest first, once more than
    /// `maxInFlight` are outstanding (waiting for the oldest if it is still running).
    func submit(_ rows: [ProvisionRowResult]) -> [Ticket] {
        let ticket = Ticket(rows)
        for (index, row) in rows.enumerated() where row.needsQRCode {
            guard let familyID = row.familyId, let code = row.code else { continue }
            let renderer = renderer
            let path = "\(outputDirectory)/\(QRCodeFiles.relativePath(for: familyID))"
            queue.async(group: ticket.group) {
                do {
                    _ = try QRCodeFiles.write(code: code, to: path, renderer: renderer)
                    ticket.written.add(1, ordering: .relaxed)
                } catch {
                    ticket.failedWrites.add(1, ordering: .relaxed)
                    ticket.results.withLock { results in
                        results[index].status = .failed
                        results[index].error = "family \(familyID) was created but its QR code could not be written (\(error.localizedDescription)); run the same command again to write it"
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
