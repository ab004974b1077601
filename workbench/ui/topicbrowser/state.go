package topicbrowser

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
)

// What the workbench reads of the tree, and what its tests press.

// Topic returns a topic of the named connection as last read; false when
// it was not read.
func (k *Browser) Topic(conn, name string) (kafkabrowser.Topic, bool) {
	c := k.conns[conn]
	if c == nil {
		return kafkabrowser.Topic{}, false
	}
	return k.topic(c, name)
}

// Tree is the tree widget.
func (k *Browser) Tree() *widget.Tree { return k.tree }

// InternalCheck is the header's Internal check (internal topics shown).
func (k *Browser) InternalCheck() *widget.Check { return k.internalCheck }

// ConnID, TopicID, GroupsID, GroupID and ErrorID are the tree's node IDs
// of a connection, a topic, a topic's consumer groups, one group, and
// the line saying a connection's topics could not be read.
func ConnID(conn string) widget.TreeNodeID            { return kID(kNodeConn, conn) }
func TopicID(conn, topic string) widget.TreeNodeID    { return kID(kNodeTopic, conn, topic) }
func GroupsID(conn, topic string) widget.TreeNodeID   { return kID(kNodeGroups, conn, topic) }
func GroupID(conn, topic, g string) widget.TreeNodeID { return kID(kNodeGroup, conn, topic, g) }
func ErrorID(conn string) widget.TreeNodeID           { return kID(kNodeInfo, conn, "error") }

// Children lists a node's children as the tree asks for them (an open
// topic's consumer groups are read then).
func (k *Browser) Children(uid widget.TreeNodeID) []widget.TreeNodeID { return k.childUIDs(uid) }

// MenuFor is a node's context menu (nil: none).
func (k *Browser) MenuFor(uid widget.TreeNodeID) *fyne.Menu { return k.menuFor(uid) }

// DoubleTap double-taps a row drawing the node uid.
func (k *Browser) DoubleTap(uid widget.TreeNodeID) {
	r := newKafkaRow(k)
	k.updateNode(uid, false, r)
	r.DoubleTapped(nil)
}
