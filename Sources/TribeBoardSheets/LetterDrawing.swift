extension SheetRenderer {
    /// Draws one letter in `shape` (on no target: measures it) with `boxes`: each text's fit, and
    /// the QR code's square.
    func drawLetter(_ invitation: Invitation, shape: SheetGeometry.LetterShape, _ boxes: InvitationBoxes,
                    _ targets: [OpaquePointer]) -> DrawnInvitation {
        var drawn = DrawnInvitation()
        let page = geometry.letterBody
        var y = page.y
        var textX = page.x
        if let logo {
            for target in targets { logo.draw(in: target, x: page.x, y: page.y + (Logo.box.height - logo.height) / 2) }
            textX += logo.width + 12
        }
        if !template.organisation.isEmpty {
            drawn.fits[.organisation] = boxes.organisation.line(
                template.organisation, x: textX, y: page.y + 14,
                width: page.x + page.width - textX, minimumScale: 0.6,
                alignment: .natural, gray: 0.35, on: targets)
        }
        y += 64
        let fields = values(invitation)
        // Up to four lines of 14 pt, three of 22.
        let title = boxes.title.block(
            template.title.filled(fields, columns: invitation.columns),
            regions: [PageRect(x: page.x, y: y, width: page.width, height: 80)],
            minimumScale: Self.titleFloor / 22, on: targets)
        drawn.fits[.title] = title
        y += title.height + 12
        let name = boxes.nameBox(for: invitation.familyName, points: shape.namePoints)
            .block(
                invitation.familyName,
                regions: [PageRect(x: page.x, y: y, width: page.width, height: 200)],
                minimumScale: 1, alignment: .center, on: targets)
        drawn.fits[.familyName] = name
        y += name.height + 12
        let qrSize = shape.qrSize
        drawn.qr = PageRect(
            x: page.x + (page.width - qrSize) / 2, y: y, width: qrSize, height: qrSize)
        y += qrSize + 8
        let label = boxes.codeLabel.line(
            template.codeLabel, x: page.x, y: y, width: page.width, minimumScale: 0.6, gray: 0.35,
            on: targets)
        drawn.fits[.codeLabel] = label
        y += label.height
        let code = boxes.code.line(
            invitation.code, x: page.x, y: y, width: page.width, minimumScale: 0.3, on: targets)
        drawn.fits[.code] = code
        y += code.height + 6
        if let admin = adminLine(invitation) {
            let fit = boxes.admin.block(
                admin, regions: [PageRect(x: page.x, y: y, width: page.width, height: 60)],
                minimumScale: 0.5, alignment: .center, on: targets)
            drawn.fits[.adminName] = fit
            y += fit.height + 6
        }
        y += 12
        let body = PageRect(x: page.x, y: y, width: page.width, height: page.y + page.height - y)
        drawn.fits[.wording] = boxes.wording.block(
            template.body.filled(fields, columns: invitation.columns), regions: [body],
            minimumScale: Self.letterFloor / 13, on: targets)
        return drawn
    }
}
