// Fixture (written for doctor's tests): the extension links the same package, without iCloud.
import PVLibrary

final class SpotlightIndexer {}
