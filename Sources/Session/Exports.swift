@_exported import struct EngagementServer.ClientIdentity
@_exported import struct EngagementServer.DeviceWatch
@_exported import struct EngagementServer.Finding
@_exported import struct EngagementServer.Refusal
// The snapshot types a face names, re-exported so the inspector's UI imports Session (and
// the pure core) alone and never the engine or the server modules themselves.
@_exported import struct EngagementServer.ServerSnapshot
@_exported import struct EngagementServer.WatchedRegistration
@_exported import struct RegistrationEngine.EngineSnapshot
