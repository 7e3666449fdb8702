







let STORAGE_CLOUD_NAME = "iCloud.jsblocker"

