import Foundation

/// Decodes QR PNGs with zbarimg (Debian's zbar-tools): a reader independent of our encoder.
package enum QRReader {
    package enum Failure: Error, CustomStringConvertible {
        case zbarMissing
        case unreadable(path: String, output: String)

        package var description: String {
            switch self {
            case .zbarMissing:
                return "zbarimg is not installed; run `make deps` (Debian package zbar-tools)"
            case .unreadable(let path, let output):
                return "zbarimg could not read \(path): \(output)"
            }
        }
    }

    package static var zbarimgPath: String? {
        ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// The text of every symbol in each file, in the order given.
    package static func decode(_ paths: [String]) throws -> [String] {
        guard let zbarimg = zbarimgPath else { throw Failure.zbarMissing }
        var decoded: [String] = []
        // Many files per process: zbarimg starts in about 20 ms.
        for chunk in stride(from: 0, to: paths.count, by: 200).map({
            Array(paths[$0..<min($0 + 200, paths.count)])
        }) {
            let result = try ProcessRunner.run(
                zbarimg, ["--nodbus", "-q", "--raw", "-Sdisable", "-Sqrcode.enable"] + chunk)
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: true).map(
                String.init)
            guard result.status == 0, lines.count == chunk.count else {
                throw Failure.unreadable(
                    path: chunk.joined(separator: " "), output: result.stdout + result.stderr)
            }
            decoded += lines
        }
        return decoded
    }

    /// Every symbol zbarimg finds in one image of several (a page): none is an empty list.
    package static func decodeAll(_ path: String) throws -> [String] {
        guard let zbarimg = zbarimgPath else { throw Failure.zbarMissing }
        let result = try ProcessRunner.run(
            zbarimg, ["--nodbus", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", path])
        // zbarimg ends 4 when it finds no symbol.
        guard result.status == 0 || result.status == 4 else {
            throw Failure.unreadable(path: path, output: result.stderr)
        }
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: true).map(
            String.init)
    }
}
