import CSV
import Foundation
import TribeBoardCSV
import TribeBoardDomain

/// Reads back a `manifest.csv` that provision wrote: one invitation per row that has a family
/// and a code (created or existing), streamed row by row.
package enum ManifestInvitations {
    /// `columns`: the other columns to carry (the template's placeholders); one the header lacks
    /// is refused before any row is read, naming the template's placeholders.
    package static func forEach(path: String, columns wanted: [SheetTemplate.Column] = [],
                                _ body: (Invitation) throws -> Void) throws(InvitationReadError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .manifestMissing(path: path, reason: errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG, let stream = InputStream(fileAtPath: path)
        else {
            throw .manifestMissing(path: path, reason: "not a regular file")
        }
        // CSV.swift stops at the first byte that is not UTF-8 and reads an unclosed quote to the
        // end of the file: the pre-scan provision uses refuses both, naming the line.
        let scan: CSVPreScan
        do { scan = try CSVPreScan.scan(path: path) } catch { throw .manifest(path: path, reason: error.localizedDescription) }
        if let bad = scan.malformedRecords.first { throw .manifest(path: path, reason: "line \(bad.line): \(bad.reason)") }
        let reader: CSVReader
        do {
            // The manifest may be in the input's dialect (`;`, tab: provision --manifest-format).
            reader = try CSVReader(stream: stream, hasHeaderRow: true, delimiter: Unicode.Scalar(scan.format.delimiter))
        } catch {
            throw .manifest(path: path, reason: "no header row")
        }
        let header = reader.headerRow ?? []
        func column(_ name: String) throws(InvitationReadError) -> Int {
            guard let index = header.firstIndex(of: name) else {
                throw .manifest(
                    path: path, reason: "no \(name) column (is it a manifest.csv from provision?)")
            }
            return index
        }
        let id = try column("family_id"), name = try column("family_name"),
            code = try column("code")
        let external = try column("external_id"), state = try column("status")
        do throws(SheetTemplateError) {
            try SheetTemplate.requireColumns(wanted, available: Set(header))
        } catch {
            throw .rendering(SheetError.template(error))
        }
        let extra = Dictionary(wanted.compactMap { wanted in header.firstIndex(of: wanted.name).map { (wanted.name, $0) } }) { first, _ in first }
        let width = ([id, name, code, external, state] + extra.values).max().map { $0 + 1 } ?? 0
        var line = 1
        while let fields = reader.next() {
            line += 1
            guard fields.count >= width else {
                if fields.allSatisfy(\.isEmpty) { continue }
                throw .manifest(path: path, reason: "line \(line) has \(fields.count) fields, the header \(header.count)")
            }
            guard fields[state] != "failed", !fields[code].isEmpty, !fields[id].isEmpty else { continue }
            let invitation = Invitation(familyId: FamilyID(rawValue: fields[id]), familyName: unneutralized(fields[name]),
                                        code: fields[code], adminName: nil,
                                        externalId: fields[external].isEmpty ? nil : unneutralized(fields[external]),
                                        columns: extra.mapValues { unneutralized(fields[$0]) })
            do { try body(invitation) } catch { throw .rendering(error) }
        }
        // CSV.swift's reader.error is also how it says "end of file"; the stream's status tells a
        // real failure (its streamError traps on Linux).
        if stream.streamStatus == .error {
            throw .manifest(path: path, reason: "a read failed after line \(line)")
        }
    }

    /// Undoes the `'` that CSVField.escape puts before a field a spreadsheet would run as a formula.
    static func unneutralized(_ field: String) -> String {
        let bytes = Array(field.utf8.prefix(2))
        guard bytes.count == 2, bytes[0] == 0x27,
            [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D].contains(bytes[1])
        else { return field }
        return String(field.dropFirst())
    }
}
