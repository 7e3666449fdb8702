import CCairoPango
import TribeBoardQR

/// A QR code as filled rectangles, one per run of dark modules in a row: vectors, sharp at any
/// size, from the same libqrencode matrix as provision's PNGs.
enum QRDrawing {
    /// The quiet zone the QR specification requires around the symbol, in modules.
    static let quietZone = 4

    /// Draws the code's symbol and its quiet zone in the square at (x, y) of side `size`.
    static func draw(_ code: String, in context: OpaquePointer, x: Double, y: Double, size: Double) throws(SheetError) {
        do {
            try QRCodeEncoder.withModules(of: code) { (modules) throws(QRCodeError) in
                let module = size / Double(modules.width + 2 * quietZone)
                cairo_set_source_rgb(context, 1, 1, 1)
                cairo_rectangle(context, x, y, size, size)
                cairo_fill(context)
                cairo_set_source_rgb(context, 0, 0, 0)
                let origin = (x: x + Double(quietZone) * module, y: y + Double(quietZone) * module)
                for row in 0..<modules.width {
                    var column = 0
                    while column < modules.width {
                        guard modules.isDark(x: column, y: row) else { column += 1; continue }
                        let start = column
                        while column < modules.width && modules.isDark(x: column, y: row) { column += 1 }
                        cairo_rectangle(context, origin.x + Double(start) * module, origin.y + Double(row) * module,
                                        Double(column - start) * module, module)
                    }
                }
                cairo_fill(context)
            }
        } catch {
            throw .qr(error)
        }
    }
}
