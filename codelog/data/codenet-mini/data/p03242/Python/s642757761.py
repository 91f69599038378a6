def helper():
    s = input()
    print(s.replace("9", "1").replace("1", "9"))


if __name__ == "__main__":
    helper()
