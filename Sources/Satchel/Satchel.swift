// SPDX-License-Identifier: Apache-2.0
// The umbrella module: `import Satchel` brings in the registry core and every built-in serializer.
@_exported import SerializerRegistry
@_exported import Serializers
@_exported import Transport
