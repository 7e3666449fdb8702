import Foundation

/// A rectangle of a rendered page as 8-bit gray pixels, at 72 dpi (one pixel a point), rendered
/// by poppler (pdftoppm), independent of cairo.
package struct PageImage: Sendable {
    package struct Failure: Error, CustomStringConvertible { package let description: String }

    package let width: Int, height: Int
    package let pixels: [UInt8]

    /// The part of `page` at (`x`, `y`) of `width` × `height` points; a whole page without them.
    package static func render(
        _ pdf: String, page: Int, x: Double = 0, y: Double = 0, width: Double? = nil,
        height: Double? = nil
    ) throws -> PageImage {
        let directory = try TemporaryDirectory("page-image")
        let prefix = directory.file("crop")
        var arguments = ["-r", "72", "-gray", "-f", "\(page)", "-l", "\(page)", "-singlefile",
                         "-x", "\(Int(x.rounded()))", "-y", "\(Int(y.rounded()))"]
        if let width, let height { arguments += ["-W", "\(Int(width))", "-H", "\(Int(height))"] }
        let result = try ProcessRunner.run(
            try PDFReader.tool("pdftoppm"), arguments + [pdf, prefix])
        let data = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm"))) ?? Data())
        // A binary PGM: "P5\n<width> <height>\n255\n" then a byte a pixel.
        var fields: [Int] = [], index = 2, number = 0, inNumber = false
        while fields.count < 3, index < data.count {
            if (0x30...0x39).contains(data[index]) {
                number = number * 10 + Int(data[index] - 0x30); inNumber = true
            } else if inNumber {
                fields.append(number); number = 0; inNumber = false
            }
            index += 1
        }
        guard result.status == 0, data.starts(with: [0x50, 0x35]), fields.count == 3,
            data.count - index == fields[0] * fields[1]
        else {
            throw Failure(description: "pdftoppm gave no gray image: \(result.stderr)")
        }
        return PageImage(width: fields[0], height: fields[1], pixels: Array(data[index...]))
    }

    package func pixel(x: Int, y: Int) -> UInt8 {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return 255 }
        return pixels[y * width + x]
    }

    package var darkFraction: Double {
        Double(pixels.filter { $0 < 200 }.count) / Double(max(pixels.count, 1))
    }

    package func edgeBandIsBlank(points: Int) -> Bool {
        for row in 0..<height {
            for column in 0..<width
            where row < points || row >= height - points || column < points
                || column >= width - points
            {
                if pixels[row * width + column] < 250 { return false }
            }
        }
        return true
    }

    /// Where dark strokes cross the line of pixels from `start` in steps of (`dx`, `dy`): the
    /// middle of each run of dark pixels.
    func crossings(x: Int, y: Int, dx: Int, dy: Int) -> [Int] {
        var found: [Int] = [], runStart: Int?
        var (column, row, step) = (x, y, 0)
        while (0..<width).contains(column) && (0..<height).contains(row) {
            let dark = pixel(x: column, y: row) < 200
            if dark, runStart == nil { runStart = step }
            if !dark, let start = runStart { found.append((start + step - 1) / 2); runStart = nil }
            (column, row, step) = (column + dx, row + dy, step + 1)
        }
        if let start = runStart { found.append((start + step - 1) / 2) }
        return found
    }
}
