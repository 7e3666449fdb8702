import CCairoPango

extension SheetRenderer {
    /// Draws one card (on no target: measures it) with `boxes`: each text's fit, and the QR
    /// code's square, drawn by the caller outside the card's clip.
    func drawCard(
        _ invitation: Invitation, in card: PageRect, qrShare: Double, _ boxes: InvitationBoxes,
        _ targets: [OpaquePointer]
    ) -> DrawnInvitation {
        var drawn = DrawnInvitation()
        let pad = 10.0, inner = card.width - 2 * pad, floor = Self.cardFloor
        var y = card.y + pad
        if !template.organisation.isEmpty {
            let fit = boxes.organisation.line(
                template.organisation, x: card.x + pad, y: y, width: inner, minimumScale: floor / 8,
                gray: 0.35, on: targets)
            drawn.fits[.organisation] = fit
            y += fit.height
        }
        // Every name of a run at one size, wrapped at spaces and hyphens (within a word only
        // when it is wider than the card), over up to 40% of the card's height.
        let nameRegion = PageRect(x: card.x + pad, y: y, width: inner, height: card.height * 0.4)
        let name = boxes.nameBox(for: invitation.familyName, points: Self.cardNamePoints)
            .block(
                invitation.familyName, regions: [nameRegion], minimumScale: 1, alignment: .center,
                on: targets)
        drawn.fits[.familyName] = name
        y += name.height + 4
        let qrSize = min(card.y + card.height - pad - y, card.width * qrShare)
        drawn.qr = PageRect(x: card.x + pad, y: y, width: qrSize, height: qrSize)
        let column = card.x + pad + qrSize + 6
        let columnWidth = card.x + card.width - pad - column
        let label = boxes.codeLabel.line(
            template.codeLabel, x: column, y: y + 4, width: columnWidth, minimumScale: floor / 9,
            alignment: .natural, gray: 0.35, on: targets)
        drawn.fits[.codeLabel] = label
        y += label.height + 8
        let code = boxes.code.line(
            invitation.code, x: column, y: y, width: columnWidth, minimumScale: 0.3,
            alignment: .natural,
            on: targets)
        drawn.fits[.code] = code
        y += code.height + 2
        let qrBottom = drawn.qr.y + qrSize + 3
        if let admin = adminLine(invitation) {
            // Wrapped in the column beside the QR code, as the name is.
            let region = PageRect(x: column, y: y, width: columnWidth, height: max(qrBottom - y, 0))
            let fit = boxes.admin.block(
                admin, regions: [region], minimumScale: floor / 9, on: targets)
            drawn.fits[.adminName] = fit
            y += fit.height + 3
        }
        // The wording is in the column beside the QR code down to the card's foot when it fits
        // there at full size; if not, it fills the column, then the card's width below the code.
        let bottom = card.y + card.height - pad
        let regions = [
            PageRect(x: column, y: y, width: columnWidth, height: qrBottom - y),
            PageRect(x: card.x + pad, y: qrBottom, width: inner, height: bottom - qrBottom)
        ]
        drawn.fits[.wording] = boxes.wording.block(
            template.body.filled(values(invitation), columns: invitation.columns),
            first: [PageRect(x: column, y: y, width: columnWidth, height: bottom - y)],
            regions: regions, minimumScale: floor / 7.5, on: targets)
        return drawn
    }

    func drawCutMarks(_ context: OpaquePointer, rows: Int, count: Int) {
        cairo_set_source_rgb(context, 0.4, 0.4, 0.4)
        cairo_set_line_width(context, 0.5)
        for mark in geometry.cutMarks(rows: rows, count: count) {
            cairo_move_to(context, mark.x0, mark.y0)
            cairo_line_to(context, mark.x1, mark.y1)
        }
        cairo_stroke(context)
    }
}
