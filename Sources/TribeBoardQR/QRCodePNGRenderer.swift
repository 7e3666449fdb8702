import CPNGWriter
import Foundation

/// Renders a QR matrix as a 1-bit grayscale PNG through libpng.
///
/// 1-bit output keeps files small (a 6-character code is about 400 bytes) and is the fastest path;
/// identical pixel rows are shared rather than copied, since each module row repeats `scale` times.
package struct QRCodePNGRenderer: Sendable {
    package static let quietZoneModules = 4
    package let scale: Int
    /// zlib level: 1 compresses these highly repetitive images almost as well as 9, far faster.
    let compressionLevel: Int32

    package init(scale: Int = 8, compressionLevel: Int32 = 1) throws(QRCodeError) {
        guard (1...64).contains(scale) else { throw .invalidScale(scale) }
        self.scale = scale
        self.compressionLevel = compressionLevel
    }

    package func render(_ matrix: QRCodeModules) throws(QRCodeError) -> [UInt8] {
        let modules = matrix.width + 2 * Self.quietZoneModules
        let pixels = modules * scale
        let rowBytes = (pixels + 7) / 8
        // One packed row per module row, plus a shared all-white row for the quiet zone.
        var packed = [UInt8](repeating: 0xFF, count: rowBytes * (matrix.width + 1))
        for moduleY in 0..<matrix.width {
            let rowStart = moduleY * rowBytes
            for moduleX in 0..<matrix.width where matrix.isDark(x: moduleX, y: moduleY) {
                let firstPixel = (moduleX + Self.quietZoneModules) * scale
                if scale & 7 == 0 {
                    // Whole bytes (the default scale of 8 is one byte per module).
                    let firstByte = rowStart + (firstPixel >> 3)
                    for byte in firstByte..<(firstByte + (scale >> 3)) { packed[byte] = 0 }
                } else {
                    for pixel in firstPixel..<(firstPixel + scale) {
                        packed[rowStart + (pixel >> 3)] &= ~(0x80 >> UInt8(pixel & 7))
                    }
                }
            }
        }
        let whiteRow = matrix.width * rowBytes
        return try packed.withUnsafeBufferPointer { (buffer) throws(QRCodeError) -> [UInt8] in
            guard let base = buffer.baseAddress else {
                throw .pngEncodingFailed(reason: "empty image")
            }
            let rows: [UnsafePointer<UInt8>?] = (0..<pixels).map { pixelY in
                let moduleY = pixelY / scale - Self.quietZoneModules
                let offset = (0..<matrix.width).contains(moduleY) ? moduleY * rowBytes : whiteRow
                return base + offset
            }
            return try encode(rows: rows, size: pixels)
        }
    }

    /// Encodes `code` and renders it in one go.
    package func png(for code: String) throws(QRCodeError) -> [UInt8] {
        try QRCodeEncoder.withModules(of: code) { (modules) throws(QRCodeError) in
            try render(modules)
        }
    }

    private func encode(rows: [UnsafePointer<UInt8>?], size: Int) throws(QRCodeError) -> [UInt8] {
        var output = tb_png_buffer()
        defer { tb_png_buffer_free(&output) }
        var message = [CChar](repeating: 0, count: 256)
        let status = rows.withUnsafeBufferPointer { rowPointers in
            tb_png_encode_gray1(
                rowPointers.baseAddress, UInt32(size), UInt32(size), compressionLevel,
                &output, &message, message.count)
        }
        guard status == 0, let data = output.data else {
            let reason = String(
                decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .pngEncodingFailed(reason: reason.isEmpty ? "unknown error" : reason)
        }
        return Array(UnsafeBufferPointer(start: data, count: output.size))
    }
}
