/// An import file read as provision reads it: its bytes (`CSVSource`), its dialect and broken
/// records (`CSVPreScan`) and the operator's `--map`. The one way to its rows, so that the import
/// keys `sheets --from-import` looks families up by are the ones provision stored: a key built
/// without the mapping reads fewer columns and can match another family's row.
package struct ImportFile {
    package let source: CSVSource
    package let preScan: CSVPreScan
    package let mapping: HeaderMapping

    package init(path: String, mapping: HeaderMapping) throws(CSVImportError) {
        source = try CSVSource(path)
        preScan = try CSVPreScan.scan(path: source.path)
        self.mapping = mapping
    }

    /// A reader from the first record (each call reads the file again).
    package func reader() throws(CSVImportError) -> FamilyCSVReader {
        try FamilyCSVReader(
            path: source.path, malformed: preScan.malformedRecords, format: preScan.format,
            mapping: mapping)
    }

    /// Every row's import key, valid or not (a row that failed at provision made no family, but
    /// its key is still the row's).
    package func importKeys() throws(CSVImportError) -> Set<String> {
        let reader = try reader()
        let parser = RowParser()
        var keys = Set<String>()
        while let record = try reader.next() {
            switch parser.parse(record) {
            case .valid(let row): keys.insert(row.importKey)
            case .invalid(_, _, _, let key, _): if let key { keys.insert(key) }
            }
        }
        return keys
    }
}
