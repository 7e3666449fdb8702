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
                // Each run of dark modules is one stroke a module wide, drawn in module units: cairo
                // writes a stroke in user space, so the PDF gets 4 small numbers a run ("3 4.5 m
                // 9 4.5 l") instead of a rectangle's 8 in page space; the PDF's size and the time
                // spent formatting and compressing numbers, most of the run, drop with them.
                cairo_save(context)
                cairo_translate(context, x + Double(quietZone) * module, y + Double(quietZone) * module)
                cairo_scale(context, module, module)
                cairo_set_source_rgb(context, 0, 0, 0)
                cairo_set_line_width(context, 1)
                cairo_set_line_cap(context, CAIRO_LINE_CAP_BUTT)
                for row in 0..<modules.width {
                    var column = 0
                    while column < modules.width {
                        guard modules.isDark(x: column, y: row) else { column += 1; continue }
                        let start = column
                        while column < modules.width && modules.isDark(x: column, y: row) { column += 1 }
                        cairo_move_to(context, Double(start), Double(row) + 0.5)
                        cairo_line_to(context, Double(column), Double(row) + 0.5)
                    }
                }
                cairo_stroke(context)
                cairo_restore(context)
            }
        } catch {
            throw .qr(error)
        }
    }
}
