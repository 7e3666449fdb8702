import Foundation
import TribeBoardAudit
import TribeBoardCSV
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardQR
import TribeBoardResync
import TribeBoardStore
import TribeBoardSupport

// The `kind` of the errors the libraries throw. Each is `area.case`, named after the typed case
// (not the message, which may be reworded): scripts and the table of docs/errors.md depend on them.

extension ErrorDetail {
    static let lockHeldKind = "lock.held"
}

extension StoreError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .cannotOpen(let path, _): return ErrorDetail(kind: "store.cannotOpen").with { $0.path = path }
        case .notAStore(let path, _): return ErrorDetail(kind: "store.notAStore").with { $0.path = path }
        case .newerSchema(let path, _): return ErrorDetail(kind: "store.newerSchema").with { $0.path = path }
        case .writeFailed: return ErrorDetail(kind: "store.writeFailed")
        case .readFailed: return ErrorDetail(kind: "store.readFailed")
        case .busy(let path, _): return ErrorDetail(kind: "store.busy").with { $0.path = path }
        case .unreadableValue(let table, let rowID, let column, _):
            return ErrorDetail(kind: "store.unreadableValue").with {
                $0.column = "\(table).\(column)"
                $0.recordId = rowID == "?" ? nil : rowID
            }
        case .notAFile(let path, let what):
            return ErrorDetail(kind: "store.notAFile").with {
                $0.path = path
                $0.fileType = switch what {
                case .symbolicLink: "symbolicLink"
                case .folder: "folder"
                case .special: "special"
                }
            }
        }
    }
}

extension CSVImportError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .cannotOpen(let path, _): return ErrorDetail(kind: "csv.cannotOpen").with { $0.path = path }
        case .invalidUTF8(let line): return ErrorDetail(kind: "csv.invalidUTF8").with { $0.line = line }
        case .unterminatedQuote(let line): return ErrorDetail(kind: "csv.unterminatedQuote").with { $0.line = line }
        case .empty: return ErrorDetail(kind: "csv.empty")
        case .missingColumnInHeader(let name, _, _): return ErrorDetail(kind: "csv.missingColumn").with { $0.column = name }
        case .utf16: return ErrorDetail(kind: "csv.utf16")
        case .utf32: return ErrorDetail(kind: "csv.utf32")
        case .duplicateColumn(let name): return ErrorDetail(kind: "csv.duplicateColumn").with { $0.column = name }
        case .unreadable: return ErrorDetail(kind: "csv.unreadable")
        case .workingCopy(let folder, _): return ErrorDetail(kind: "csv.workingCopy").with { $0.path = folder }
        case .malformedHeader(let record): return ErrorDetail(kind: "csv.malformedHeader").with { $0.line = record.line }
        case .headerMapping(let problem): return ErrorDetail(kind: "csv.headerMapping").with { $0.column = problem.header }
        case .tooLarge(let path):
            return ErrorDetail(kind: "csv.tooLarge").with {
                $0.path = path
                $0.bytes = CSVSource.maxBytes
            }
        }
    }
}

extension CloudKitError: DocumentedError {
    /// The kind is the error's own (`CloudKitError.kind`, which the reports' `stopKind` uses too).
    var errorDetail: ErrorDetail {
        let detail: ErrorDetail
        switch self {
        case .service(let code, let status, _, let retryAfter):
            detail = ErrorDetail(kind: kind).with {
                $0.serverErrorCode = code.rawValue
                $0.httpStatus = status
                // The server's number, checked: JSON has no infinity, and a week is not a wait.
                $0.retryAfterSeconds = RetryPolicy.usable(retryAfter, upTo: 86_400)
            }
        case .unexpectedResponse(let status, _): detail = ErrorDetail(kind: kind).with { $0.httpStatus = status }
        case .gaveUp(let attempts, let last): detail = last.errorDetail.with { $0.attempts = attempts }
        case .schema(.missingType(let type), _): detail = ErrorDetail(kind: kind).with { $0.recordType = type }
        case .schema(.notQueryable(let field, let type), _):
            detail = ErrorDetail(kind: kind).with {
                $0.field = field
                $0.recordType = type
            }
        case .schema(.notIndexable(let type), _): detail = ErrorDetail(kind: kind).with { $0.recordType = type }
        case .schema(.missingField(let field, let type), _):
            detail = ErrorDetail(kind: kind).with {
                $0.field = field
                $0.recordType = type
            }
        case .network, .outOfTime, .responseTooLarge, .schema(.notDeployed, _): detail = ErrorDetail(kind: kind)
        }
        return detail.with { $0.category = category.rawValue }
    }
}

extension CloudKitConfigurationError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .missing(let what): return ErrorDetail(kind: "config.missing").with { $0.setting = what }
        // Not the value: it may be a key id pasted in the wrong place.
        case .invalid(let setting, _, _): return ErrorDetail(kind: "config.invalid").with { $0.setting = setting }
        case .keyFileUnreadable(let path, _): return ErrorDetail(kind: "config.keyFileUnreadable").with { $0.path = path }
        case .keyFilePermissions(let path, let mode):
            return ErrorDetail(kind: "config.keyFilePermissions").with {
                $0.path = path
                $0.mode = String(mode & 0o7777, radix: 8)
            }
        case .invalidKey: return ErrorDetail(kind: "config.invalidKey")
        case .configFile(let path, let line, _):
            return ErrorDetail(kind: "config.file").with {
                $0.path = path
                $0.line = line
            }
        }
    }
}

extension SyncLock.Failure: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .held(let pid): return ErrorDetail(kind: ErrorDetail.lockHeldKind).with { $0.pid = pid }
        case .cannotOpen(let path, _): return ErrorDetail(kind: "lock.cannotOpen").with { $0.path = path }
        }
    }
}

extension SnapshotError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .cannotOpen(let path, _): return ErrorDetail(kind: "snapshot.cannotOpen").with { $0.path = path }
        case .readFailed(let path, _): return ErrorDetail(kind: "snapshot.readFailed").with { $0.path = path }
        case .parserUnavailable: return ErrorDetail(kind: "snapshot.parserUnavailable")
        case .lineTooLong(let path, let line):
            return ErrorDetail(kind: "snapshot.lineTooLong").with {
                $0.path = path
                $0.line = line
                $0.bytes = SnapshotReader.maxLineBytes
            }
        case .tooManyLines(let path): return ErrorDetail(kind: "snapshot.tooLarge").with { $0.path = path }
        case .notASnapshot(let path, let line):
            return ErrorDetail(kind: "snapshot.notASnapshot").with {
                $0.path = path
                $0.line = line
            }
        }
    }
}

extension FileSystemError: DocumentedError {
    var errorDetail: ErrorDetail {
        ErrorDetail(kind: "file.failed").with {
            $0.path = path
            $0.operation = operation
        }
    }
}

extension QRCodeError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .encodingFailed: return ErrorDetail(kind: "qr.encodingFailed")
        case .pngEncodingFailed: return ErrorDetail(kind: "qr.pngEncodingFailed")
        case .invalidScale: return ErrorDetail(kind: "qr.invalidScale")
        }
    }
}

extension CodeGenerationError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .noFreeCode(let tried): return ErrorDetail(kind: "code.noFreeCode").with { $0.attempts = tried }
        case .randomSourceUnavailable(let attempts, _): return ErrorDetail(kind: "code.randomSourceUnavailable").with { $0.attempts = attempts }
        }
    }
}
