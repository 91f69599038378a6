import sys

def main():

    h = sys.stdin.read().split()

    v = int(h[0])

    tmp = [int(length) for length in h[1:]]
    val = ""

    for text in range(v):
        val += str(tmp[v - 1 - text])
        if text != v - 1:

            val += " "

    print(val)


if __name__ == "__main__":
    main()
