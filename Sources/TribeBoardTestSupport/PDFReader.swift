import Foundation

/// Reads a PDF back with poppler-utils and zbar-tools, independent of cairo and pango: the text a
/// copy-paste gets (pdftotext), the page count and size (pdfinfo), the embedded fonts (pdffonts)
/// and every QR code on the rendered pages (pdftoppm, then zbarimg).
package enum PDFReader {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package struct Info: Sendable, Equatable {
        package let pages: Int
        package let width: Double
        package let height: Double
    }

    static func tool(_ name: String) throws -> String {
        guard let path = ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(description: "\(name) is not installed; run `make deps` (Debian package poppler-utils or zbar-tools)")
        }
        return path
    }

    static func output(_ name: String, _ arguments: [String]) throws -> String {
        let result = try ProcessRunner.run(try tool(name), arguments)
        guard result.status == 0 else { throw Failure(description: "\(name) \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }

    package static func text(_ pdf: String) throws -> String { try output("pdftotext", ["-enc", "UTF-8", pdf, "-"]) }

    package static func info(_ pdf: String) throws -> Info {
        let lines = try output("pdfinfo", [pdf]).split(separator: "\n")
        func value(_ key: String) -> String? {
            lines.first { $0.hasPrefix(key + ":") }.map { $0.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces) }
        }
        // "Page size:       595.276 x 841.89 pts (A4)"
        let size = (value("Page size") ?? "").split(separator: " ")
        guard let pages = value("Pages").flatMap({ Int($0) }), size.count >= 3,
              let width = Double(size[0]), let height = Double(size[2]) else {
            throw Failure(description: "pdfinfo gave no page count or size for \(pdf)")
        }
        return Info(pages: pages, width: width, height: height)
    }

    /// The PostScript names of the embedded fonts ("NotoSansArabic-Bold", subset prefixes removed).
    package static func fonts(_ pdf: String) throws -> [String] {
        try output("pdffonts", [pdf]).split(separator: "\n").dropFirst(2).compactMap { line in
            line.split(separator: " ").first.map { name in
                String(name.split(separator: "+").last ?? name)
            }
        }
    }

    /// A page cut into equal cells inside a margin, in points: cards are scanned one at a time, as
    /// a phone scans them (zbarimg, given a whole page of eight codes, misses one now and then).
    package struct Grid: Sendable {
        package let columns: Int, rows: Int, margin: Double
        package init(columns: Int, rows: Int, margin: Double) {
            self.columns = columns
            self.rows = rows
            self.margin = margin
        }
    }

    /// Every QR code on every page (cell by cell with a grid), in page order.
    package static func qrCodes(_ pdf: String, dpi: Int = 150, grid: Grid? = nil) throws -> [String] {
        let directory = try TemporaryDirectory("pdf-pages")
        let info = try info(pdf)
        let scale = Double(dpi) / 72
        var crops: [(page: Int, x: Int, y: Int, width: Int, height: Int)] = []
        for page in 1...max(info.pages, 1) where info.pages > 0 {
            guard let grid else {
                crops.append((page, 0, 0, Int(info.width * scale), Int(info.height * scale)))
                continue
            }
            let width = (info.width - 2 * grid.margin) / Double(grid.columns), height = (info.height - 2 * grid.margin) / Double(grid.rows)
            for cell in 0..<(grid.columns * grid.rows) {
                crops.append((page, Int((grid.margin + Double(cell % grid.columns) * width) * scale),
                              Int((grid.margin + Double(cell / grid.columns) * height) * scale), Int(width * scale), Int(height * scale)))
            }
        }
        var codes: [String] = []
        for (index, crop) in crops.enumerated() {
            let prefix = directory.file("crop\(index)")
            _ = try output("pdftoppm", ["-r", String(dpi), "-f", String(crop.page), "-l", String(crop.page), "-singlefile",
                                        "-x", String(crop.x), "-y", String(crop.y), "-W", String(crop.width), "-H", String(crop.height),
                                        "-png", pdf, prefix])
            let result = try ProcessRunner.run(try tool("zbarimg"), ["--nodbus", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", prefix + ".png"])
            codes += result.stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }
        return codes
    }
}
