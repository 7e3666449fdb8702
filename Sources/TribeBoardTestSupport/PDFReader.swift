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
        guard
            let path = ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw Failure(
                description: "\(name) is not installed; run `make deps` "
                    + "(Debian package poppler-utils or zbar-tools)"
            )
        }
        return path
    }

    static func output(_ name: String, _ arguments: [String]) throws -> String {
        let result = try ProcessRunner.run(try tool(name), arguments)
        guard result.status == 0 else {
            throw Failure(
                description: "\(name) \(arguments.joined(separator: " ")): \(result.stderr)")
        }
        return result.stdout
    }

    package static func text(_ pdf: String) throws -> String {
        try output("pdftotext", ["-enc", "UTF-8", pdf, "-"])
    }

    /// The type of each image `pdfimages -list` finds (`image`, `stencil`, `smask`…): a logo is
    /// an `image`, each QR code a `stencil` (an image mask).
    package static func imageTypes(_ pdf: String) throws -> [String] {
        try output("pdfimages", ["-list", pdf]).split(separator: "\n").dropFirst(2)
            .compactMap {
                $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).first.map(
                    String.init)
            }
    }

    package static func info(_ pdf: String) throws -> Info {
        let lines = try output("pdfinfo", [pdf]).split(separator: "\n")
        func value(_ key: String) -> String? {
            lines.first { $0.hasPrefix(key + ":") }.map {
                $0.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
            }
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

    /// A card as a person cutting the page finds it, in points: between the cut marks.
    package struct Card: Sendable, Equatable {
        package let page: Int
        package let x: Double, y: Double, width: Double, height: Double
    }

    /// Every card of every page, found by its cut marks as whoever cuts the sheet finds them: the
    /// strokes in the left margin give the rows, those in the top margin the columns (a page of
    /// taller cards has fewer rows). A page without marks (a letter) is one card, the whole page.
    package static func cards(_ pdf: String) throws -> [Card] {
        let info = try info(pdf)
        var cards: [Card] = []
        for page in 1...max(info.pages, 1) where info.pages > 0 {
            let image = try PageImage.render(pdf, page: page)
            // The marks stop 12 points from the paper's edge and 6 from the cards (36).
            let rows = image.crossings(x: 21, y: 0, dx: 0, dy: 1),
                columns = image.crossings(x: 0, y: 21, dx: 1, dy: 0)
            guard rows.count > 1, columns.count > 1 else {
                cards.append(Card(page: page, x: 0, y: 0, width: info.width, height: info.height))
                continue
            }
            for (top, bottom) in zip(rows, rows.dropFirst()) {
                for (left, right) in zip(columns, columns.dropFirst()) {
                    cards.append(
                        Card(
                            page: page, x: Double(left), y: Double(top),
                            width: Double(right - left), height: Double(bottom - top)))
                }
            }
        }
        return cards
    }

    /// Every QR code of every card (`cards`), in page order: cards are scanned one at a time, as
    /// a phone scans them (zbarimg, given a whole page of eight codes, misses one now and then).
    package static func qrCodes(_ pdf: String, dpi: Int = 150) throws -> [String] {
        let directory = try TemporaryDirectory("pdf-pages")
        let scale = Double(dpi) / 72
        var codes: [String] = []
        for (index, card) in try cards(pdf).enumerated() {
            let prefix = directory.file("crop\(index)")
            _ = try output(
                "pdftoppm",
                [
                    "-r", String(dpi), "-f", String(card.page), "-l", String(card.page),
                    "-singlefile",
                    "-x", String(Int(card.x * scale)), "-y", String(Int(card.y * scale)),
                    "-W", String(Int(card.width * scale)), "-H", String(Int(card.height * scale)),
                    "-png", pdf, prefix
                ])
            let result = try ProcessRunner.run(
                try tool("zbarimg"),
                ["--nodbus", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", prefix + ".png"])
            codes += result.stdout.split(separator: "\n", omittingEmptySubsequences: true).map(
                String.init)
        }
        return codes
    }
}
