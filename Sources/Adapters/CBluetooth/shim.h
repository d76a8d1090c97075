// The BlueZ library headers wearbridge uses: addresses, HCI (LE scanning) and L2CAP sockets.
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#include <bluetooth/l2cap.h>
