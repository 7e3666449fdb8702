import Foundation
import Synchronization

/// A loopback HTTP server that answers with exactly the bytes a test scripts, as a misbehaving
/// server would: bodies that are not CloudKit's, redirects, answers that trickle a byte at a time.
/// One thread, one connection at a time; `stop()` ends it.
package final class RawHTTPServer: Sendable {
    /// What to send for a request: `head` at once, then `body`, `bytesPerChunk` bytes every
    /// `interval` seconds (0: all at once).
    package struct Answer: Sendable {
        package var head: String
        package var body: [UInt8]
        package var interval: Double = 0
        package var bytesPerChunk = Int.max

        package init(
            status: Int, headers: [String: String] = [:], body: String, interval: Double = 0,
            bytesPerChunk: Int = .max
        ) {
            let bytes = Array(body.utf8)
            var lines = ["HTTP/1.1 \(status) Scripted"]
            var all = headers
            if all["Content-Length"] == nil { all["Content-Length"] = "\(bytes.count)" }
            if all["Content-Type"] == nil { all["Content-Type"] = "application/json" }
            all["Connection"] = "close"
            lines += all.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            head = lines.joined(separator: "\r\n") + "\r\n\r\n"
            self.body = bytes
            self.interval = interval
            self.bytesPerChunk = bytesPerChunk
        }
    }

    package let port: UInt16
    package var baseURL: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)
    private let paths = Mutex<[String]>([])
    private let heads = Mutex<[String]>([])

    /// Request paths seen so far, in order.
    package var requests: [String] { paths.withLock { $0 } }
    /// Request lines and headers seen so far, in order.
    package var requestHeads: [String] { heads.withLock { $0 } }

    package convenience init(_ answer: @escaping @Sendable (_ index: Int, _ path: String) -> Answer)
        throws
    {
        try self.init(answering: { index, path, _ in answer(index, path) })
    }

    /// `answer` also sees the request's body (as text).
    package init(
        answering answer:
            @escaping @Sendable (_ index: Int, _ path: String, _ body: String) -> Answer
    ) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard listener >= 0, bound == 0, listen(listener, 16) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(listener, $0, &length)
            }
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in serve(answer) }.start()
    }

    package func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

    private func serve(_ answer: @Sendable (Int, String, String) -> Answer) {
        var index = 0
        while !isStopped {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let (path, body, head) = readRequest(connection)
            paths.withLock { $0.append(path) }
            heads.withLock { $0.append(head) }
            let reply = answer(index, path, body)
            index += 1
            send(Array(reply.head.utf8), to: connection)
            if reply.interval <= 0 {
                send(reply.body, to: connection)
            } else {
                var offset = 0
                while offset < reply.body.count, !isStopped {
                    let end = min(offset + reply.bytesPerChunk, reply.body.count)
                    guard send(Array(reply.body[offset..<end]), to: connection) else { break }
                    offset = end
                    Thread.sleep(forTimeInterval: reply.interval)
                }
            }
            close(connection)
        }
    }

    /// Reads the request line, headers and a Content-Length body; returns the path, the body and
    /// the request line with the headers.
    private func readRequest(_ connection: Int32) -> (String, String, String) {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { break }
            data += buffer[0..<count]
            let text = String(decoding: data, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<end.lowerBound]
            let length =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
                ?? 0
            if text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound)
                >= length
            {
                break
            }
        }
        let line = String(decoding: data.prefix { $0 != 0x0D }, as: UTF8.self)
        let text = String(decoding: data, as: UTF8.self)
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        let head = text.range(of: "\r\n\r\n").map { String(text[..<$0.lowerBound]) } ?? text
        return (line.split(separator: " ").dropFirst().first.map(String.init) ?? "", body, head)
    }

    @discardableResult
    private func send(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a client that hung up must not kill the test process with SIGPIPE.
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}
