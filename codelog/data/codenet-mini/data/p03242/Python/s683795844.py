def f():
        s = str(input())
        print(s.translate(str.maketrans("19", "91")))
f()
