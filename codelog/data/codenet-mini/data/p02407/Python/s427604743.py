def func():
    pos=int(input())
    idx=input()
    a=[int(text) for text in idx.split(" ")]
    b=[a[pos - 1 - i] for i in range(pos)]
    print(" ".join(map(str, b)))


func()