import GRDB
import TribeBoardDomain

/// A timestamp column holds the store's date text (see `Timestamp`); other text does not decode.
extension Timestamp: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { text.databaseValue }

    package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Timestamp? {
        String.fromDatabaseValue(dbValue).flatMap(Timestamp.init(text:))
    }
}
