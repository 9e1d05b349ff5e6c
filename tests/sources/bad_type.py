"""A tool whose parameter type no schema can describe."""

import socket

import toolcall


@toolcall.tool
def connect(sock: socket.socket) -> None:
    """Use a socket."""
