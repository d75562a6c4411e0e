import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL

/// The certificate and key (PEM files) the local server answers https with (`--tls-cert`,
/// `--tls-key`). Read when the server starts; a file that cannot be used stops the start with
/// its name and the reason.
public struct ServerTLS: Sendable {
  public var certificatePath: String
  public var keyPath: String

  public init(certificatePath: String, keyPath: String) {
    self.certificatePath = certificatePath
    self.keyPath = keyPath
  }

  public struct Problem: Error, CustomStringConvertible {
    public var description: String
  }

  /// Checks both files now, and that they belong together, so a bad one is reported by name
  /// before anything listens.
  public func check() throws(Problem) {
    let configuration = try configuration()
    do {
      _ = try NIOSSLContext(configuration: configuration)
    } catch {
      throw Problem(
        description:
          "--tls-key \(keyPath) does not match the certificate in --tls-cert \(certificatePath) (\(error))"
      )
    }
  }

  func configuration() throws(Problem) -> TLSConfiguration {
    for (option, path) in [("--tls-cert", certificatePath), ("--tls-key", keyPath)] {
      guard FileManager.default.fileExists(atPath: path) else {
        throw Problem(description: "\(option) \(path): no such file")
      }
      guard FileManager.default.isReadableFile(atPath: path) else {
        throw Problem(description: "\(option) \(path): cannot be read")
      }
    }
    let chain: [NIOSSLCertificate]
    do {
      chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
    } catch {
      throw Problem(description: "--tls-cert \(certificatePath): not a PEM certificate (\(error))")
    }
    guard !chain.isEmpty else {
      throw Problem(description: "--tls-cert \(certificatePath): holds no certificate")
    }
    let key: NIOSSLPrivateKey
    do {
      key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
    } catch {
      throw Problem(description: "--tls-key \(keyPath): not a PEM private key (\(error))")
    }
    return TLSConfiguration.makeServerConfiguration(
      certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
  }

  func serverBuilder(
    _ http1: HTTP1Channel.Configuration, guards: ConnectionGuards,
    fastPath: RegistrationFastPath.Setup?
  ) throws -> HTTPServerBuilder {
    try .tls(
      .engagementHTTP1(http1, guards: guards, fastPath: fastPath),
      tlsConfiguration: configuration())
  }
}
