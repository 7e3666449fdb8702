import Foundation

/// Ids for new records: UUIDs formatted as the app writes them (`uuidString`, uppercase).
///
/// They are version 7 (RFC 9562): a millisecond timestamp, a counter, then random bits. The app
/// treats ids as opaque strings; time order is for the store, where random v4 ids scattered each
/// bulk batch's inserts over every page of a dozen indexes (ids and the references to them).
/// Random bits come from the secure source in blocks: Foundation's `UUID()` opens /dev/urandom on
/// every call on Linux.
package final class RecordIDGenerator {
    private let source: any SecureRandomSource
    private let now: () -> UInt64
    private var pool = [UInt8](repeating: 0, count: 4096)
    private var next = 4096
    private var lastMillisecond: UInt64 = 0
    private var counter: UInt16 = 0

    package init(source: any SecureRandomSource,
         now: @escaping () -> UInt64 = { UInt64(max(Date().timeIntervalSince1970, 0) * 1000) }) {
        self.source = source
        self.now = now
    }

    package func make() throws(RandomSourceError) -> String {
        if next + 10 > pool.count {
            try source.fill(&pool)
            next = 0
        }
        let (millisecond, sequence) = tick()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 {
            bytes[index] = UInt8(truncatingIfNeeded: millisecond >> (8 * (5 - index)))
        }
        bytes[6] = 0x70 | UInt8(sequence >> 8)  // version 7, then the counter's high 4 bits
        bytes[7] = UInt8(truncatingIfNeeded: sequence)
        for index in 8..<16 { bytes[index] = pool[next + index - 8] }
        next += 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC variant
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return uuid.uuidString
    }

    /// A 12-bit counter keeps ids made within one millisecond in order; when it runs out, the
    /// timestamp moves on by a millisecond rather than repeat.
    private func tick() -> (UInt64, UInt16) {
        let current = now()
        if current > lastMillisecond {
            lastMillisecond = current
            counter = 0
        } else if counter < 0x0FFF {
            counter += 1
        } else {
            lastMillisecond += 1
            counter = 0
        }
        return (lastMillisecond, counter)
    }
}
