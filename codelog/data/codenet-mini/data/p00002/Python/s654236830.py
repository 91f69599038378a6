import sys

def func():
    for chars in sys.stdin:
        chars = chars.strip()
        if chars == "":
            continue
        a, j = map(int, chars.split(" "))
        print(len(str(a + j)), end="")


if __name__ == "__main__":
    func()
