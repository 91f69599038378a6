def f():

    mx=str(input())

    print("".join("9" if c == "1" else "1" for c in mx))  # 入力


if __name__ == "__main__":
    f()  # read input
