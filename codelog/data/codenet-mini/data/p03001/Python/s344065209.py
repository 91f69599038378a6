#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# ABC130 C
def main():
	W, H, e, acc = [int(v) for v in input().split()]
	print("{:.6f}".format(W*H*0.5), 1 if e*2==W else 0)


# ループ
if __name__=="__main__":
	main()
