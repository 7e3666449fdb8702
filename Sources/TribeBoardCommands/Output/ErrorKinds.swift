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

extension StoreError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .cannotOpen(let path, _):
            return ErrorDetail(kind: .storeCannotOpen).with { $0.path = path }
        case .notAStore(let path, _):
            return ErrorDetail(kind: .storeNotAStore).with { $0.path = path }
        case .newerSchema(let path, _):
            return ErrorDetail(kind: .storeNewerSchema).with { $0.path = path }
        case .writeFailed: return ErrorDetail(kind: .storeWriteFailed)
        case .readFailed: return ErrorDetail(kind: .storeReadFailed)
        case .busy(let path, _): return ErrorDetail(kind: .storeBusy).with { $0.path = path }
        case .unreadableValue(let table, let rowID, let column, _):
            return ErrorDetail(kind: .storeUnreadableValue).with {
                $0.column = "\(table).\(column)"
                $0.recordId = rowID == "?" ? nil : rowID
            }
        case .notAFile(let path, let what):
            return ErrorDetail(kind: .storeNotAFile).with {
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
        case .cannotOpen(let path, _):
            return ErrorDetail(kind: .csvCannotOpen).with { $0.path = path }
        case .invalidUTF8(let line):
            return ErrorDetail(kind: .csvInvalidUTF8).with { $0.line = line }
        case .unterminatedQuote(let line):
            return ErrorDetail(kind: .csvUnterminatedQuote).with { $0.line = line }
        case .empty: return ErrorDetail(kind: .csvEmpty)
        case .missingColumnInHeader(let name, _, _):
            return ErrorDetail(kind: .csvMissingColumn).with { $0.column = name }
        case .utf16: return ErrorDetail(kind: .csvUtf16)
        case .utf32: return ErrorDetail(kind: .csvUtf32)
        case .duplicateColumn(let name):
            return ErrorDetail(kind: .csvDuplicateColumn).with { $0.column = name }
        case .unreadable: return ErrorDetail(kind: .csvUnreadable)
        case .workingCopy(let folder, _):
            return ErrorDetail(kind: .csvWorkingCopy).with { $0.path = folder }
        case .malformedHeader(let record):
            return ErrorDetail(kind: .csvMalformedHeader).with { $0.line = record.line }
        case .headerMapping(let problem):
            return ErrorDetail(kind: .csvHeaderMapping).with { $0.column = problem.header }
        case .tooLarge(let path):
            return ErrorDetail(kind: .csvTooLarge).with {
                $0.path = path
                $0.bytes = CSVSource.maxBytes
            }
        }
    }
}

extension CloudKitError: DocumentedError {
    /// The kind is the error's own (`CloudKitError.kind`, which the reports' `stopKind` uses too;
    /// `StopKindTests` keeps the two equal).
    var errorKind: ErrorKind {
        switch self {
        case .network: return .cloudkitNetwork
        case .service: return .cloudkitService
        case .unexpectedResponse: return .cloudkitUnexpectedResponse
        case .gaveUp(_, let last): return last.errorKind
        case .outOfTime: return .cloudkitOutOfTime
        case .schema(.missingType, _): return .cloudkitSchemaMissingType
        case .schema(.notQueryable, _): return .cloudkitSchemaNotQueryable
        case .schema(.notDeployed, _): return .cloudkitSchemaNotDeployed
        case .schema(.notIndexable, _): return .cloudkitSchemaNotIndexable
        case .schema(.missingField, _): return .cloudkitSchemaMissingField
        case .responseTooLarge: return .cloudkitResponseTooLarge
        }
    }

    var errorDetail: ErrorDetail {
        let detail: ErrorDetail
        switch self {
        case .service(let code, let status, _, let retryAfter):
            detail = ErrorDetail(kind: errorKind).with {
                $0.serverErrorCode = code.rawValue
                $0.httpStatus = status
                // The server's number, checked: JSON has no infinity, and a week is not a wait.
                $0.retryAfterSeconds = RetryPolicy.usable(retryAfter, upTo: 86_400)
            }
        case .unexpectedResponse(let status, _):
            detail = ErrorDetail(kind: errorKind).with { $0.httpStatus = status }
        case .gaveUp(let attempts, let last):
            detail = last.errorDetail.with { $0.attempts = attempts }
        case .schema(.missingType(let type), _):
            detail = ErrorDetail(kind: errorKind).with { $0.recordType = type }
        case .schema(.notQueryable(let field, let type), _):
            detail = ErrorDetail(kind: errorKind).with {
                $0.field = field
                $0.recordType = type
            }
        case .schema(.notIndexable(let type), _):
            detail = ErrorDetail(kind: errorKind).with { $0.recordType = type }
        case .schema(.missingField(let field, let type), _):
            detail = ErrorDetail(kind: errorKind).with {
                $0.field = field
                $0.recordType = type
            }
        case .network, .outOfTime, .responseTooLarge, .schema(.notDeployed, _):
            detail = ErrorDetail(kind: errorKind)
        }
        return detail.with { $0.category = category.rawValue }
    }
}

extension CloudKitConfigurationError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .missing(let what): return ErrorDetail(kind: .configMissing).with { $0.setting = what }
        // Not the value: it may be a key id pasted in the wrong place.
        case .invalid(let setting, _, _):
            return ErrorDetail(kind: .configInvalid).with { $0.setting = setting }
        case .keyFileUnreadable(let path, _):
            return ErrorDetail(kind: .configKeyFileUnreadable).with { $0.path = path }
        case .keyFilePermissions(let path, let mode):
            return ErrorDetail(kind: .configKeyFilePermissions).with {
                $0.path = path
                $0.mode = String(mode & 0o7777, radix: 8)
            }
        case .invalidKey: return ErrorDetail(kind: .configInvalidKey)
        case .configFile(let path, let line, _):
            return ErrorDetail(kind: .configFile).with {
                $0.path = path
                $0.line = line
            }
        }
    }
}

extension SyncLock.Failure: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .held(let pid): return ErrorDetail(kind: .lockHeld).with { $0.pid = pid }
        case .cannotOpen(let path, _):
            return ErrorDetail(kind: .lockCannotOpen).with { $0.path = path }
        }
    }
}

extension ResyncRunError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .store(let error): error.errorDetail
        case .lock(let error): error.errorDetail
        }
    }
}

extension SnapshotError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .cannotOpen(let path, _):
            return ErrorDetail(kind: .snapshotCannotOpen).with { $0.path = path }
        case .readFailed(let path, _):
            return ErrorDetail(kind: .snapshotReadFailed).with { $0.path = path }
        case .parserUnavailable: return ErrorDetail(kind: .snapshotParserUnavailable)
        case .lineTooLong(let path, let line):
            return ErrorDetail(kind: .snapshotLineTooLong).with {
                $0.path = path
                $0.line = line
                $0.bytes = SnapshotReader.maxLineBytes
            }
        case .tooManyLines(let path):
            return ErrorDetail(kind: .snapshotTooLarge).with { $0.path = path }
        case .notASnapshot(let path, let line):
            return ErrorDetail(kind: .snapshotNotASnapshot).with {
                $0.path = path
                $0.line = line
            }
        }
    }
}

extension FileSystemError: DocumentedError {
    var errorDetail: ErrorDetail {
        ErrorDetail(kind: .fileFailed).with {
            $0.path = path
            $0.operation = operation
        }
    }
}

extension QRCodeError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .encodingFailed: return ErrorDetail(kind: .qrEncodingFailed)
        case .pngEncodingFailed: return ErrorDetail(kind: .qrPngEncodingFailed)
        case .invalidScale: return ErrorDetail(kind: .qrInvalidScale)
        }
    }
}

extension CodeGenerationError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .noFreeCode(let tried):
            return ErrorDetail(kind: .codeNoFreeCode).with { $0.attempts = tried }
        case .randomSourceUnavailable(let attempts, _):
            return ErrorDetail(kind: .codeRandomSourceUnavailable).with { $0.attempts = attempts }
        }
    }
}
