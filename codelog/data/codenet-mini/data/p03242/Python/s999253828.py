def f():
        g = input().strip()
        print(g.replace("1","x").replace("9","1").replace("x","9"))


f()
