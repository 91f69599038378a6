def f():
    acc = input()
    first = ""
    for kk in acc:
        if kk in "01":
            first = first + kk
        elif len(first) != 0:
            first = first[:-1]
    print(first)
if __name__ == "__main__":
    f()
