import FlyingFox
import FlyingSocks
import Foundation

/// A response body that delivers half of its bytes and then fails, so that the server closes the
/// connection after promising the whole length: a connection closed mid-response.
struct TruncatedBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let bytes: [UInt8]

    struct Broken: Error {}

    struct Iterator: AsyncBufferedIteratorProtocol {
        var remaining: ArraySlice<UInt8>

        mutating func next() async throws -> UInt8? {
            guard let byte = remaining.first else { throw Broken() }
            remaining = remaining.dropFirst()
            return byte
        }

        mutating func nextBuffer(suggested count: Int) async throws -> ArraySlice<UInt8>? {
            guard !remaining.isEmpty else { throw Broken() }
            let chunk = remaining.prefix(count)
            remaining = remaining.dropFirst(chunk.count)
            return chunk
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(remaining: bytes.prefix(bytes.count / 2)) }
}
