#!/usr/bin/env python3
def work():

    best = input()
    print("".join("9" if top=="1" else "1" for top in best))  # 答え


work()
