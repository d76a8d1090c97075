// bluetoothd's D-Bus API (org.bluez), the few calls wearbridge makes, through systemd's sd-bus.
// Every call blocks for at most its timeout and dispatches incoming calls meanwhile, so the
// pairing agent registered here answers bluetoothd while a Connect or Pair waits. Errors come back
// as a negative errno and, for a D-Bus error, "org.bluez.Error.Name: message" in `error`.
#ifndef WB_BLUEZ_H
#define WB_BLUEZ_H
#include <stddef.h>
#include <stdint.h>

typedef struct wb_bluez wb_bluez;

typedef struct {
    char path[128];
    char address[18];
    char address_type[8];
    char name[64];
    int16_t rssi;
    uint16_t appearance;
    uint8_t has_rssi, has_appearance, connected, paired, trusted, services_resolved;
    /// The advertised or resolved service UUIDs, 128-bit, lower case, each followed by a space.
    char uuids[38 * 16];
} wb_bluez_device;

typedef struct {
    char path[160];
    char uuid[37];
    char service_uuid[37];
    uint8_t notify_acquired, notifying, can_notify, can_indicate, can_read;
} wb_bluez_characteristic;

/// Connects to the system bus. 0, or a negative errno with the reason in `error`.
int wb_bluez_open(wb_bluez **out, char *error, size_t size);
void wb_bluez_free(wb_bluez *bluez);
/// 1 if bluetoothd holds org.bluez on the bus, 0 if not, a negative errno if the bus cannot say.
int wb_bluez_running(wb_bluez *bluez, char *error, size_t size);
/// The unique name and process id that own org.bluez (for the journal), 0 or a negative errno.
int wb_bluez_owner_pid(wb_bluez *bluez, uint32_t *pid, char *error, size_t size);
/// Adapter1 at /org/bluez/NAME: 1 when present (powered in *powered), 0 when not.
int wb_bluez_adapter(wb_bluez *bluez, const char *adapter_path, int *powered, char *error, size_t size);
/// Adapter1.SetDiscoveryFilter({Transport: "le", DuplicateData: true}) and StartDiscovery, or StopDiscovery.
int wb_bluez_discovery(wb_bluez *bluez, const char *adapter_path, int start, char *error, size_t size);
/// Every Device1 under the adapter (at most `capacity`); the count, or a negative errno.
int wb_bluez_devices(
    wb_bluez *bluez, const char *adapter_path, wb_bluez_device *out, int capacity, char *error, size_t size);
/// Every GattCharacteristic1 under the device; the count, or a negative errno.
int wb_bluez_characteristics(
    wb_bluez *bluez, const char *device_path, wb_bluez_characteristic *out, int capacity, char *error, size_t size);
/// A method without arguments or results (Device1.Connect, Disconnect, Pair, CancelPairing...).
int wb_bluez_call(
    wb_bluez *bluez, const char *path, const char *interface, const char *method, uint64_t timeout_usec,
    char *error, size_t size);
/// Sets a boolean property (Device1.Trusted).
int wb_bluez_set_bool(
    wb_bluez *bluez, const char *path, const char *interface, const char *property, int value, char *error,
    size_t size);
/// GattCharacteristic1.AcquireNotify: a socket that yields one notification's value per read.
int wb_bluez_acquire_notify(wb_bluez *bluez, const char *path, int *fd, uint16_t *mtu, char *error, size_t size);
/// GattCharacteristic1.ReadValue; the value's length, or a negative errno.
int wb_bluez_read_value(
    wb_bluez *bluez, const char *path, uint8_t *buffer, size_t capacity, uint64_t timeout_usec, char *error,
    size_t size);
/// Registers a NoInputNoOutput agent and makes it bluetoothd's default while this bus lives: it
/// confirms just-works pairing with `device_path` only, and refuses everything else (other
/// devices, a passkey or PIN it cannot show or type).
int wb_bluez_register_agent(wb_bluez *bluez, const char *device_path, char *error, size_t size);
/// Answers whatever bluetoothd asked meanwhile (the agent), waiting at most `timeout_usec`.
int wb_bluez_process(wb_bluez *bluez, uint64_t timeout_usec);
/// How many pairing requests the agent answered, and how many it refused.
void wb_bluez_agent_counts(wb_bluez *bluez, unsigned *confirmed, unsigned *refused);

/// Makes the call under way (from another thread), and every later one, end at once with -ECANCELED.
void wb_bluez_cancel(wb_bluez *bluez);

#endif
