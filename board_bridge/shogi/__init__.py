"""board_bridge.shogi"""
