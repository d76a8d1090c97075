// bluetoothd's D-Bus API through sd-bus: see include/wb_bluez.h.
#include "wb_bluez.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <fcntl.h>

#define AGENT_PATH "/org/wearbridge/agent"

struct wb_bluez {
    sd_bus *bus;
    sd_bus_slot *agent;
    unsigned confirmed, refused;
    int cancelled;
    /// The one device the agent confirms pairing with (empty: none).
    char expected[128];
};

static uint64_t now_usec(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

static void say(char *error, size_t size, const char *format, ...) {
    if (!error || size == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error, size, format, arguments);
    va_end(arguments);
}

/// A negative errno, with the D-Bus error's name and message (or the call and errno) in `error`.
static int failed(int r, const sd_bus_error *e, const char *what, char *error, size_t size) {
    if (e && sd_bus_error_is_set(e)) {
        say(error, size, "%s: %s", e->name, e->message ? e->message : "");
        return r < 0 ? r : -EIO;
    }
    say(error, size, "%s: %s", what, strerror(r < 0 ? -r : EIO));
    return r < 0 ? r : -EIO;
}

typedef struct {
    int done;
    sd_bus_message *reply;
} pending;

static int on_reply(sd_bus_message *m, void *userdata, sd_bus_error *unused) {
    (void)unused;
    pending *p = userdata;
    p->done = 1;
    p->reply = sd_bus_message_ref(m);
    return 0;
}

/// Sends `m` and waits for its reply, dispatching whatever else arrives (the agent's calls).
static int call(wb_bluez *b, sd_bus_message *m, uint64_t timeout, sd_bus_message **reply, sd_bus_error *e) {
    pending p = {0, NULL};
    sd_bus_slot *slot = NULL;
    int r = sd_bus_call_async(b->bus, &slot, m, on_reply, &p, timeout);
    if (r < 0) return r;
    // sd-bus answers a call nobody replied to with NoReply at `timeout`; one second more is a backstop.
    uint64_t deadline = now_usec() + timeout + 1000000u;
    while (!p.done) {
        if (__atomic_load_n(&b->cancelled, __ATOMIC_ACQUIRE)) {
            r = -ECANCELED;
            break;
        }
        r = sd_bus_process(b->bus, NULL);
        if (r < 0) break;
        if (r > 0) continue;
        uint64_t now = now_usec();
        if (now >= deadline) {
            r = -ETIMEDOUT;
            break;
        }
        r = sd_bus_wait(b->bus, deadline - now < 200000u ? deadline - now : 200000u);
        if (r < 0 && r != -EINTR) break;
    }
    sd_bus_slot_unref(slot);
    if (!p.done) return r < 0 ? r : -ETIMEDOUT;
    if (sd_bus_message_is_method_error(p.reply, NULL)) {
        sd_bus_error_copy(e, sd_bus_message_get_error(p.reply));
        sd_bus_message_unref(p.reply);
        return -EIO;
    }
    if (reply)
        *reply = p.reply;
    else
        sd_bus_message_unref(p.reply);
    return 0;
}

static int method(wb_bluez *b, sd_bus_message **m, const char *destination, const char *path, const char *interface,
                  const char *member) {
    return sd_bus_message_new_method_call(b->bus, m, destination, path, interface, member);
}

int wb_bluez_open(wb_bluez **out, char *error, size_t size) {
    wb_bluez *b = calloc(1, sizeof *b);
    if (!b) return failed(-ENOMEM, NULL, "calloc", error, size);
    int r = sd_bus_open_system(&b->bus);
    if (r < 0) {
        free(b);
        return failed(r, NULL, "the system D-Bus", error, size);
    }
    *out = b;
    return 0;
}

void wb_bluez_free(wb_bluez *b) {
    if (!b) return;
    sd_bus_slot_unref(b->agent);
    sd_bus_flush_close_unref(b->bus);
    free(b);
}

int wb_bluez_running(wb_bluez *b, char *error, size_t size) {
    sd_bus_message *m = NULL, *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int owned = 0;
    int r = method(b, &m, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner");
    if (r >= 0) r = sd_bus_message_append(m, "s", "org.bluez");
    if (r >= 0) r = call(b, m, 5000000u, &reply, &e);
    if (r >= 0) r = sd_bus_message_read(reply, "b", &owned);
    if (r < 0) r = failed(r, &e, "NameHasOwner(org.bluez)", error, size);
    sd_bus_message_unref(m);
    sd_bus_message_unref(reply);
    sd_bus_error_free(&e);
    return r < 0 ? r : owned != 0;
}

int wb_bluez_owner_pid(wb_bluez *b, uint32_t *pid, char *error, size_t size) {
    sd_bus_message *m = NULL, *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int r = method(b, &m, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                   "GetConnectionUnixProcessID");
    if (r >= 0) r = sd_bus_message_append(m, "s", "org.bluez");
    if (r >= 0) r = call(b, m, 5000000u, &reply, &e);
    if (r >= 0) r = sd_bus_message_read(reply, "u", pid);
    if (r < 0) r = failed(r, &e, "GetConnectionUnixProcessID(org.bluez)", error, size);
    sd_bus_message_unref(m);
    sd_bus_message_unref(reply);
    sd_bus_error_free(&e);
    return r < 0 ? r : 0;
}

/// Reads one property's variant: calls `take` when its name and signature are wanted, else skips it.
typedef int (*property_reader)(sd_bus_message *m, const char *name, const char *signature, void *target);

static int read_properties(sd_bus_message *m, property_reader take, void *target) {
    int r = sd_bus_message_enter_container(m, 'a', "{sv}");
    if (r < 0) return r;
    while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
        const char *name = NULL, *signature = NULL;
        char type = 0;
        if ((r = sd_bus_message_read(m, "s", &name)) < 0) return r;
        if ((r = sd_bus_message_peek_type(m, &type, &signature)) < 0) return r;
        r = signature ? take(m, name, signature, target) : 0;
        if (r < 0) return r;
        if (r == 0 && (r = sd_bus_message_skip(m, "v")) < 0) return r;
        if ((r = sd_bus_message_exit_container(m)) < 0) return r;
    }
    if (r < 0) return r;
    return sd_bus_message_exit_container(m);
}

static int read_string(sd_bus_message *m, char *into, size_t size) {
    const char *value = NULL;
    int r = sd_bus_message_read(m, "v", "s", &value);
    if (r >= 0) snprintf(into, size, "%s", value ? value : "");
    return r < 0 ? r : 1;
}

static int read_flag(sd_bus_message *m, uint8_t *into) {
    int value = 0;
    int r = sd_bus_message_read(m, "v", "b", &value);
    if (r >= 0) *into = value != 0;
    return r < 0 ? r : 1;
}

/// An "as" variant: each string handed to `each`.
static int read_strings(sd_bus_message *m, void (*each)(const char *, void *), void *target) {
    int r = sd_bus_message_enter_container(m, 'v', "as");
    if (r < 0) return r;
    if ((r = sd_bus_message_enter_container(m, 'a', "s")) < 0) return r;
    const char *value = NULL;
    while ((r = sd_bus_message_read(m, "s", &value)) > 0) each(value, target);
    if (r < 0) return r;
    if ((r = sd_bus_message_exit_container(m)) < 0) return r;
    if ((r = sd_bus_message_exit_container(m)) < 0) return r;
    return 1;
}

static void append_uuid(const char *uuid, void *target) {
    wb_bluez_device *d = target;
    size_t used = strlen(d->uuids);
    if (used + strlen(uuid) + 2 <= sizeof d->uuids) snprintf(d->uuids + used, sizeof d->uuids - used, "%s ", uuid);
}

static int device_property(sd_bus_message *m, const char *name, const char *signature, void *target) {
    wb_bluez_device *d = target;
    if (!strcmp(signature, "s")) {
        if (!strcmp(name, "Address")) return read_string(m, d->address, sizeof d->address);
        if (!strcmp(name, "AddressType")) return read_string(m, d->address_type, sizeof d->address_type);
        if (!strcmp(name, "Name")) return read_string(m, d->name, sizeof d->name);
    } else if (!strcmp(signature, "b")) {
        if (!strcmp(name, "Connected")) return read_flag(m, &d->connected);
        if (!strcmp(name, "Paired")) return read_flag(m, &d->paired);
        if (!strcmp(name, "Trusted")) return read_flag(m, &d->trusted);
        if (!strcmp(name, "ServicesResolved")) return read_flag(m, &d->services_resolved);
    } else if (!strcmp(signature, "n") && !strcmp(name, "RSSI")) {
        int r = sd_bus_message_read(m, "v", "n", &d->rssi);
        d->has_rssi = r >= 0;
        return r < 0 ? r : 1;
    } else if (!strcmp(signature, "q") && !strcmp(name, "Appearance")) {
        int r = sd_bus_message_read(m, "v", "q", &d->appearance);
        d->has_appearance = r >= 0;
        return r < 0 ? r : 1;
    } else if (!strcmp(signature, "as") && !strcmp(name, "UUIDs")) {
        return read_strings(m, append_uuid, d);
    }
    return 0;
}

static void characteristic_flag(const char *flag, void *target) {
    wb_bluez_characteristic *c = target;
    if (!strcmp(flag, "notify")) c->can_notify = 1;
    if (!strcmp(flag, "indicate")) c->can_indicate = 1;
    if (!strcmp(flag, "read")) c->can_read = 1;
}

typedef struct {
    wb_bluez_characteristic c;
    char service[160];
} characteristic_read;

static int characteristic_property(sd_bus_message *m, const char *name, const char *signature, void *target) {
    characteristic_read *x = target;
    if (!strcmp(signature, "s") && !strcmp(name, "UUID")) return read_string(m, x->c.uuid, sizeof x->c.uuid);
    if (!strcmp(signature, "o") && !strcmp(name, "Service")) {
        const char *value = NULL;
        int r = sd_bus_message_read(m, "v", "o", &value);
        if (r >= 0) snprintf(x->service, sizeof x->service, "%s", value ? value : "");
        return r < 0 ? r : 1;
    }
    if (!strcmp(signature, "b") && !strcmp(name, "NotifyAcquired")) return read_flag(m, &x->c.notify_acquired);
    if (!strcmp(signature, "b") && !strcmp(name, "Notifying")) return read_flag(m, &x->c.notifying);
    if (!strcmp(signature, "as") && !strcmp(name, "Flags")) return read_strings(m, characteristic_flag, &x->c);
    return 0;
}

typedef struct {
    char path[160];
    char uuid[37];
} service_read;

static int service_property(sd_bus_message *m, const char *name, const char *signature, void *target) {
    service_read *s = target;
    if (!strcmp(signature, "s") && !strcmp(name, "UUID")) return read_string(m, s->uuid, sizeof s->uuid);
    return 0;
}

static int starts_with_path(const char *path, const char *prefix) {
    size_t n = strlen(prefix);
    return !strncmp(path, prefix, n) && path[n] == '/';
}

/// GetManagedObjects, walked once: devices under `under` (when `devices`), or characteristics (and
/// the services they belong to) under it.
static int managed_objects(wb_bluez *b, const char *under, wb_bluez_device *devices, wb_bluez_characteristic *chars,
                           int capacity, char *error, size_t size) {
    sd_bus_message *m = NULL, *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int count = 0, services_count = 0;
    service_read services[32];
    char char_services[capacity > 0 ? capacity : 1][160];
    int r = method(b, &m, "org.bluez", "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects");
    if (r >= 0) r = call(b, m, 10000000u, &reply, &e);
    if (r >= 0) r = sd_bus_message_enter_container(reply, 'a', "{oa{sa{sv}}}");
    while (r >= 0 && (r = sd_bus_message_enter_container(reply, 'e', "oa{sa{sv}}")) > 0) {
        const char *path = NULL;
        if ((r = sd_bus_message_read(reply, "o", &path)) < 0) break;
        int wanted = starts_with_path(path, under);
        if ((r = sd_bus_message_enter_container(reply, 'a', "{sa{sv}}")) < 0) break;
        while ((r = sd_bus_message_enter_container(reply, 'e', "sa{sv}")) > 0) {
            const char *interface = NULL;
            if ((r = sd_bus_message_read(reply, "s", &interface)) < 0) break;
            if (wanted && devices && !strcmp(interface, "org.bluez.Device1") && count < capacity) {
                wb_bluez_device *d = &devices[count];
                memset(d, 0, sizeof *d);
                snprintf(d->path, sizeof d->path, "%s", path);
                r = read_properties(reply, device_property, d);
                count++;
            } else if (wanted && chars && !strcmp(interface, "org.bluez.GattCharacteristic1") && count < capacity) {
                characteristic_read x;
                memset(&x, 0, sizeof x);
                snprintf(x.c.path, sizeof x.c.path, "%s", path);
                r = read_properties(reply, characteristic_property, &x);
                chars[count] = x.c;
                snprintf(char_services[count], sizeof char_services[count], "%s", x.service);
                count++;
            } else if (wanted && chars && !strcmp(interface, "org.bluez.GattService1") && services_count < 32) {
                service_read *s = &services[services_count];
                memset(s, 0, sizeof *s);
                snprintf(s->path, sizeof s->path, "%s", path);
                r = read_properties(reply, service_property, s);
                services_count++;
            } else {
                r = sd_bus_message_skip(reply, "a{sv}");
            }
            if (r < 0) break;
            if ((r = sd_bus_message_exit_container(reply)) < 0) break;
        }
        if (r < 0) break;
        if ((r = sd_bus_message_exit_container(reply)) < 0) break;
        if ((r = sd_bus_message_exit_container(reply)) < 0) break;
    }
    if (r < 0) r = failed(r, &e, "GetManagedObjects", error, size);
    sd_bus_message_unref(m);
    sd_bus_message_unref(reply);
    sd_bus_error_free(&e);
    if (r < 0) return r;
    for (int i = 0; chars && i < count; i++)
        for (int j = 0; j < services_count; j++)
            if (!strcmp(char_services[i], services[j].path))
                snprintf(chars[i].service_uuid, sizeof chars[i].service_uuid, "%s", services[j].uuid);
    return count;
}

int wb_bluez_devices(wb_bluez *b, const char *adapter_path, wb_bluez_device *out, int capacity, char *error,
                     size_t size) {
    return managed_objects(b, adapter_path, out, NULL, capacity, error, size);
}

int wb_bluez_characteristics(wb_bluez *b, const char *device_path, wb_bluez_characteristic *out, int capacity,
                             char *error, size_t size) {
    return managed_objects(b, device_path, NULL, out, capacity, error, size);
}

int wb_bluez_adapter(wb_bluez *b, const char *adapter_path, int *powered, char *error, size_t size) {
    sd_bus_message *m = NULL, *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int value = 0;
    int r = method(b, &m, "org.bluez", adapter_path, "org.freedesktop.DBus.Properties", "Get");
    if (r >= 0) r = sd_bus_message_append(m, "ss", "org.bluez.Adapter1", "Powered");
    if (r >= 0) r = call(b, m, 5000000u, &reply, &e);
    if (r >= 0) r = sd_bus_message_read(reply, "v", "b", &value);
    int missing = r < 0 && sd_bus_error_is_set(&e) &&
                  (sd_bus_error_has_name(&e, "org.freedesktop.DBus.Error.UnknownObject") ||
                   sd_bus_error_has_name(&e, "org.freedesktop.DBus.Error.UnknownMethod") ||
                   sd_bus_error_has_name(&e, "org.freedesktop.DBus.Error.InvalidArgs"));
    if (r < 0 && !missing) r = failed(r, &e, "Adapter1.Powered", error, size);
    sd_bus_message_unref(m);
    sd_bus_message_unref(reply);
    sd_bus_error_free(&e);
    if (missing) return 0;
    if (r < 0) return r;
    *powered = value != 0;
    return 1;
}

int wb_bluez_discovery(wb_bluez *b, const char *adapter_path, int start, char *error, size_t size) {
    sd_bus_message *m = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int r = 0;
    if (start) {
        r = method(b, &m, "org.bluez", adapter_path, "org.bluez.Adapter1", "SetDiscoveryFilter");
        if (r >= 0) r = sd_bus_message_append(m, "a{sv}", 2, "Transport", "s", "le", "DuplicateData", "b", 1);
        if (r >= 0) r = call(b, m, 5000000u, NULL, &e);
        sd_bus_message_unref(m);
        m = NULL;
        if (r < 0) {
            r = failed(r, &e, "SetDiscoveryFilter", error, size);
            sd_bus_error_free(&e);
            return r;
        }
    }
    r = method(b, &m, "org.bluez", adapter_path, "org.bluez.Adapter1", start ? "StartDiscovery" : "StopDiscovery");
    if (r >= 0) r = call(b, m, 5000000u, NULL, &e);
    if (r < 0) r = failed(r, &e, start ? "StartDiscovery" : "StopDiscovery", error, size);
    sd_bus_message_unref(m);
    sd_bus_error_free(&e);
    return r < 0 ? r : 0;
}

int wb_bluez_call(wb_bluez *b, const char *path, const char *interface, const char *member, uint64_t timeout_usec,
                  char *error, size_t size) {
    sd_bus_message *m = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int r = method(b, &m, "org.bluez", path, interface, member);
    if (r >= 0) r = call(b, m, timeout_usec, NULL, &e);
    if (r < 0) r = failed(r, &e, member, error, size);
    sd_bus_message_unref(m);
    sd_bus_error_free(&e);
    return r < 0 ? r : 0;
}

int wb_bluez_set_bool(wb_bluez *b, const char *path, const char *interface, const char *property, int value,
                      char *error, size_t size) {
    sd_bus_message *m = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int r = method(b, &m, "org.bluez", path, "org.freedesktop.DBus.Properties", "Set");
    if (r >= 0) r = sd_bus_message_append(m, "ssv", interface, property, "b", value != 0);
    if (r >= 0) r = call(b, m, 5000000u, NULL, &e);
    if (r < 0) r = failed(r, &e, property, error, size);
    sd_bus_message_unref(m);
    sd_bus_error_free(&e);
    return r < 0 ? r : 0;
}

int wb_bluez_acquire_notify(wb_bluez *b, const char *path, int *fd, uint16_t *mtu, char *error, size_t size) {
    sd_bus_message *m = NULL, *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int received = -1;
    int r = method(b, &m, "org.bluez", path, "org.bluez.GattCharacteristic1", "AcquireNotify");
    if (r >= 0) r = sd_bus_message_append(m, "a{sv}", 0);
    if (r >= 0) r = call(b, m, 10000000u, &reply, &e);
    if (r >= 0) r = sd_bus_message_read(reply, "hq", &received, mtu);
    // The descriptor belongs to the message: keep a copy of our own.
    if (r >= 0) {
        *fd = fcntl(received, F_DUPFD_CLOEXEC, 3);
        if (*fd < 0) r = -errno;
    }
    if (r < 0) r = failed(r, &e, "AcquireNotify", error, size);
    sd_bus_message_unref(m);
    sd_bus_message_unref(reply);
    sd_bus_error_free(&e);
    return r < 0 ? r : 0;
}

int wb_bluez_read_value(wb_bluez *b, const char *path, uint8_t *buffer, size_t capacity, uint64_t timeout_usec,
                        char *error, size_t size) {
    sd_bus_message *m = NULL, *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    const void *value = NULL;
    size_t length = 0;
    int r = method(b, &m, "org.bluez", path, "org.bluez.GattCharacteristic1", "ReadValue");
    if (r >= 0) r = sd_bus_message_append(m, "a{sv}", 0);
    if (r >= 0) r = call(b, m, timeout_usec, &reply, &e);
    if (r >= 0) r = sd_bus_message_read_array(reply, 'y', &value, &length);
    if (r >= 0) {
        if (length > capacity) length = capacity;
        if (length) memcpy(buffer, value, length);
    }
    if (r < 0) r = failed(r, &e, "ReadValue", error, size);
    sd_bus_message_unref(m);
    sd_bus_message_unref(reply);
    sd_bus_error_free(&e);
    return r < 0 ? r : (int)length;
}

// The agent: a wearable has neither display nor keyboard.

static int agent_ok(sd_bus_message *m, void *userdata, sd_bus_error *e) {
    (void)userdata;
    (void)e;
    return sd_bus_reply_method_return(m, "");
}

static int agent_refuse(sd_bus_message *m, void *userdata, sd_bus_error *e);

/// Just-works confirmation and authorization, for the device being connected only.
static int agent_confirm(sd_bus_message *m, void *userdata, sd_bus_error *e) {
    wb_bluez *b = userdata;
    const char *device = NULL;
    if (sd_bus_message_read(m, "o", &device) < 0 || !device || !b->expected[0] || strcmp(device, b->expected))
        return agent_refuse(m, userdata, e);
    b->confirmed++;
    return sd_bus_reply_method_return(m, "");
}

static int agent_refuse(sd_bus_message *m, void *userdata, sd_bus_error *e) {
    (void)e;
    ((wb_bluez *)userdata)->refused++;
    return sd_bus_reply_method_errorf(m, "org.bluez.Error.Rejected", "no display or keyboard on this device");
}

static const sd_bus_vtable agent_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Release", "", "", agent_ok, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("RequestPinCode", "o", "s", agent_refuse, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("DisplayPinCode", "os", "", agent_ok, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("RequestPasskey", "o", "u", agent_refuse, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("DisplayPasskey", "ouq", "", agent_ok, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("RequestConfirmation", "ou", "", agent_confirm, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("RequestAuthorization", "o", "", agent_confirm, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("AuthorizeService", "os", "", agent_confirm, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Cancel", "", "", agent_ok, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END};

int wb_bluez_register_agent(wb_bluez *b, const char *device_path, char *error, size_t size) {
    snprintf(b->expected, sizeof b->expected, "%s", device_path ? device_path : "");
    if (b->agent) return 0;
    int r = sd_bus_add_object_vtable(b->bus, &b->agent, AGENT_PATH, "org.bluez.Agent1", agent_vtable, b);
    if (r < 0) return failed(r, NULL, "sd_bus_add_object_vtable", error, size);
    sd_bus_message *m = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    r = method(b, &m, "org.bluez", "/org/bluez", "org.bluez.AgentManager1", "RegisterAgent");
    if (r >= 0) r = sd_bus_message_append(m, "os", AGENT_PATH, "NoInputNoOutput");
    if (r >= 0) r = call(b, m, 5000000u, NULL, &e);
    if (r < 0 && sd_bus_error_has_name(&e, "org.bluez.Error.AlreadyExists")) r = 0;
    sd_bus_message_unref(m);
    m = NULL;
    // Pairing that bluetoothd starts itself (a sensor refusing an unencrypted link) asks the
    // default agent; this one answers only for `device_path` while this bus lives.
    if (r >= 0) r = method(b, &m, "org.bluez", "/org/bluez", "org.bluez.AgentManager1", "RequestDefaultAgent");
    if (r >= 0) r = sd_bus_message_append(m, "o", AGENT_PATH);
    if (r >= 0) r = call(b, m, 5000000u, NULL, &e);
    if (r < 0) {
        r = failed(r, &e, "RegisterAgent", error, size);
        b->agent = sd_bus_slot_unref(b->agent);
    }
    sd_bus_message_unref(m);
    sd_bus_error_free(&e);
    return r < 0 ? r : 0;
}

int wb_bluez_process(wb_bluez *b, uint64_t timeout_usec) {
    int r;
    while ((r = sd_bus_process(b->bus, NULL)) > 0) {
    }
    if (r < 0) return r;
    r = sd_bus_wait(b->bus, timeout_usec);
    if (r < 0 && r != -EINTR) return r;
    while ((r = sd_bus_process(b->bus, NULL)) > 0) {
    }
    return r < 0 ? r : 0;
}

void wb_bluez_agent_counts(wb_bluez *b, unsigned *confirmed, unsigned *refused) {
    *confirmed = b->confirmed;
    *refused = b->refused;
}

void wb_bluez_cancel(wb_bluez *b) { __atomic_store_n(&b->cancelled, 1, __ATOMIC_RELEASE); }
